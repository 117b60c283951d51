/**
 * Rule: a tool's zod input is declared once and is both its validation and its JSON Schema.
 * Unknown fields are tolerated; declared constraints are enforced; every error names the field
 * path. Legacy JSON Schema strings import leniently: unparseable ones are skipped, never fatal,
 * and one that closes its objects (`additionalProperties: false`) still lets unknown fields through.
 * What is published is portable: no `type` arrays, no `oneOf`, no closed objects, no ±2^53 bounds.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ToolArguments } from '../../tools/core/arguments';
import { isToolCallError, renderResult } from '../../tools/core/result';
import { portableSchema } from '../../tools/core/portable-schema';
import { formatPath, importJsonSchema, renderJsonSchema } from '../../tools/core/schema';
import { defineLegacyTool, defineTool } from '../../tools/core/tool';

const tapTool = defineTool({
  id: 'ui_tap',
  description: 'Tap a point or an element.',
  input: z.object({
    x: z.number().int().min(0).describe('Horizontal pixel'),
    y: z.number().int().min(0).describe('Vertical pixel'),
    target: z
      .object({ ref: z.string().min(1).describe('Element ref'), tags: z.array(z.string()).optional().describe('Tags') })
      .optional()
      .describe('Element'),
  }),
  run: ({ x, y }) => `tapped ${x},${y}`,
});

function errorOf(v: ReturnType<typeof tapTool.validate>): string {
  if (v.ok) throw new Error('expected a validation failure');
  return renderResult(v);
}

describe('validation by the declared schema', () => {
  it('names a missing required field', () => {
    expect(errorOf(tapTool.validate({ y: 1 }))).toBe(
      'Error: INVALID_ARGUMENT: Invalid arguments: missing required argument "x".\nHint: Fix the arguments and retry.',
    );
  });

  it('names a mistyped field and what was expected', () => {
    expect(errorOf(tapTool.validate({ x: 'ten', y: 1 }))).toContain('argument "x": expected number, received string');
  });

  it('names nested field paths with indexes', () => {
    const v = tapTool.validate({ x: 1, y: 1, target: { ref: 'e1', tags: ['a', 7] } });
    expect(errorOf(v)).toContain('argument "target.tags[1]": expected string, received number');
    expect(!v.ok && v.error.data?.fields).toEqual(['target.tags[1]']);
  });

  it('enforces declared constraints', () => {
    expect(errorOf(tapTool.validate({ x: -1, y: 0 }))).toContain('argument "x"');
    expect(errorOf(tapTool.validate({ x: 1.5, y: 0 }))).toContain('argument "x"');
    expect(errorOf(tapTool.validate({ x: 1, y: 1, target: { ref: '' } }))).toContain('argument "target.ref"');
  });

  it('reports every bad field at once', () => {
    const v = tapTool.validate({});
    expect(!v.ok && v.error.data?.fields).toEqual(['x', 'y']);
  });

  it('tolerates unknown fields and treats absent arguments as an empty object', () => {
    expect(tapTool.validate({ x: 1, y: 2, junk: true, reason: 'because' })).toEqual({
      ok: true,
      value: { x: 1, y: 2 },
    });
    expect(tapTool.validate(undefined).ok).toBe(false);
  });

  it('formats paths the way a model writes them', () => {
    expect(formatPath(['steps', 2, 'args', 'name'])).toBe('steps[2].args.name');
    expect(formatPath([])).toBe('(arguments)');
  });
});

describe('the rendered JSON Schema', () => {
  it('comes from the same declaration, with descriptions and constraints', () => {
    expect(tapTool.inputSchema).toEqual({
      type: 'object',
      properties: {
        x: { type: 'integer', minimum: 0, description: 'Horizontal pixel' },
        y: { type: 'integer', minimum: 0, description: 'Vertical pixel' },
        target: {
          type: 'object',
          description: 'Element',
          properties: {
            ref: { type: 'string', description: 'Element ref' },
            tags: { type: 'array', items: { type: 'string' }, description: 'Tags' },
          },
          required: ['ref'],
        },
      },
      required: ['x', 'y'],
    });
  });

  it('gives a title from the id when none is declared', () => {
    expect(tapTool.title).toBe('Ui tap');
  });
});

describe('JSON Schemas written elsewhere', () => {
  it("import a remote server's schema object as it says (a portable copy), and validate with it", () => {
    const remote = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const imported = importJsonSchema(remote);
    expect(imported.jsonSchema).toEqual(remote);
    expect(imported.validator?.safeParse({ city: 'Oslo' }).success).toBe(true);
    expect(imported.validator?.safeParse({ city: 7 }).success).toBe(false);
  });

  it('keep every limit they state in the validator, though the published copy leaves out one no model meets', () => {
    const remote = {
      type: 'object',
      properties: { note: { type: 'string', maxLength: 2000 } },
      additionalProperties: false,
    };
    const imported = importJsonSchema(remote);
    expect(imported.jsonSchema).toEqual({ type: 'object', properties: { note: { type: 'string' } } });
    expect(imported.validator?.safeParse({ note: 'n'.repeat(2001) }).success).toBe(false);
    expect(imported.validator?.safeParse({ note: 'n', extra: 1 }).success).toBe(true);
  });
});

describe('legacy JSON Schema strings', () => {
  it('validate what parses', () => {
    const tool = defineLegacyTool({
      id: 'read_file',
      description: 'Read a file.',
      parametersSchema: '{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}',
      run: (args) => String(args.path),
    });
    const v = tool.validate({});
    expect(!v.ok && v.error.message).toContain('missing required argument "path"');
    expect(tool.validate({ path: 'a', extra: 1 }).ok).toBe(true);
    expect(tool.inputSchema).toMatchObject({ required: ['path'] });
  });

  it('tolerate fields a schema with additionalProperties: false does not name, and publish it open', () => {
    const text = JSON.stringify({
      type: 'object',
      properties: { path: { type: 'string' }, opts: { type: 'object', properties: {}, additionalProperties: false } },
      required: ['path'],
      additionalProperties: false,
    });
    const tool = defineLegacyTool({
      id: 'legacy_read',
      description: 'Read.',
      parametersSchema: text,
      run: () => 'ran',
    });
    expect(tool.validate({ path: 'a.txt', junk: 1, opts: { deep: true } })).toEqual({
      ok: true,
      value: { path: 'a.txt', junk: 1, opts: { deep: true } },
    });
    const missing = tool.validate({ junk: 1 });
    expect(!missing.ok && missing.error.message).toBe('Invalid arguments: missing required argument "path".');
    expect(JSON.stringify(tool.inputSchema)).not.toContain('additionalProperties');
  });

  it.each([
    ['not JSON', '{type: object'],
    ['empty', ''],
    ['an array', '[1,2]'],
    ['a number', '42'],
  ])('are skipped, never fatal, when %s', (_why, text) => {
    const imported = importJsonSchema(text);
    expect(imported.validator).toBeUndefined();
    expect(imported.skippedBecause).toBeTruthy();
    const tool = defineLegacyTool({ id: 'legacy_tool', description: 'x', parametersSchema: text, run: () => 'ran' });
    expect(tool.validate({ anything: 1 })).toEqual({ ok: true, value: { anything: 1 } });
    expect(tool.inputSchema).toEqual({ type: 'object', properties: {} });
  });
});

describe('a published schema', () => {
  it('splits a type array into anyOf branches, each with the keywords of its type', () => {
    expect(
      portableSchema({ type: 'object', properties: { v: { type: ['string', 'integer'], maxLength: 5, minimum: 1 } } }),
    ).toEqual({
      type: 'object',
      properties: {
        v: {
          anyOf: [
            { type: 'string', maxLength: 5 },
            { type: 'integer', minimum: 1 },
          ],
        },
      },
    });
  });

  it('says anyOf for oneOf and leaves out what says nothing: $schema, {} items, string property names, ±2^53', () => {
    const rendered = renderJsonSchema(
      z.object({
        n: z.number().int().describe('A count'),
        m: z.record(z.string(), z.unknown()).describe('Names to values'),
        op: z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.literal('b') })]),
      }),
    );
    expect(rendered).toEqual({
      type: 'object',
      properties: {
        n: { type: 'integer', description: 'A count' },
        m: { type: 'object', description: 'Names to values' },
        op: {
          anyOf: [
            { type: 'object', properties: { k: { type: 'string', const: 'a' } }, required: ['k'] },
            { type: 'object', properties: { k: { type: 'string', const: 'b' } }, required: ['k'] },
          ],
        },
      },
      required: ['n', 'm', 'op'],
    });
  });

  it('leaves out a maxLength of 1000 or more, which no model meets, and still refuses a longer value', () => {
    const tool = defineTool({
      id: 'long_text',
      description: 'Takes a note and a path.',
      input: z.object({ note: z.string().max(20), path: z.string().max(4096) }),
      run: () => 'ran',
    });
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: { note: { type: 'string', maxLength: 20 }, path: { type: 'string' } },
      required: ['note', 'path'],
    });
    const refused = tool.validate({ note: 'n', path: 'p'.repeat(4097) });
    expect(!refused.ok && refused.error.message).toContain('path');
    expect(!refused.ok && refused.error.message).toContain('4096');
  });

  it('leaves out a default that leaving the field out means anyway, and keeps every other default', () => {
    const rendered = renderJsonSchema(
      z.object({
        dryRun: z.boolean().default(false),
        verify: z.boolean().default(true),
        tags: z.array(z.string()).default([]),
        env: z.record(z.string(), z.string()).default({}),
        flags: z.string().default(''),
        depth: z.number().default(0),
      }),
    );
    expect(rendered.properties).toEqual({
      dryRun: { type: 'boolean' },
      verify: { type: 'boolean', default: true },
      tags: { type: 'array', items: { type: 'string' } },
      env: { type: 'object', additionalProperties: { type: 'string' } },
      flags: { type: 'string' },
      depth: { type: 'number', default: 0 },
    });
  });

  it('says constants of one type as one enum, and leaves out minItems 1 while still refusing an empty list', () => {
    const tool = defineTool({
      id: 'pick_version',
      description: 'Takes a version and some tags.',
      input: z.object({ version: z.union([z.literal(4), z.literal(7)]), tags: z.array(z.string()).min(1) }),
      run: () => 'ran',
    });
    expect(tool.inputSchema.properties).toEqual({
      version: { type: 'number', enum: [4, 7] },
      tags: { type: 'array', items: { type: 'string' } },
    });
    expect(tool.validate({ version: 4, tags: [] }).ok).toBe(false);
  });

  it('keeps a property named like a keyword, and data values untouched', () => {
    expect(
      portableSchema({
        type: 'object',
        properties: { maximum: { type: 'number', default: 9007199254740991 }, items: { enum: [{}] } },
      }),
    ).toEqual({
      type: 'object',
      properties: { maximum: { type: 'number', default: 9007199254740991 }, items: { enum: [{}] } },
    });
  });
});

describe('the typed argument reader', () => {
  const read = (raw: unknown, fn: (a: ToolArguments) => unknown): string => {
    try {
      fn(new ToolArguments(raw));
      return 'ok';
    } catch (e) {
      if (!isToolCallError(e)) throw e;
      return `${e.toolErrorCode}: ${e.message}`;
    }
  };

  it('names a missing argument and the expected type', () => {
    expect(read({}, (a) => a.string('path'))).toBe(
      'INVALID_ARGUMENT: Invalid arguments: missing required argument "path" (expected a string).',
    );
  });

  it('names a mistyped argument and what it got', () => {
    expect(read({ count: '3' }, (a) => a.integer('count'))).toBe(
      'INVALID_ARGUMENT: Invalid arguments: argument "count" must be an integer, got string "3".',
    );
    expect(read({ n: Number.NaN }, (a) => a.number('n'))).toBe(
      'INVALID_ARGUMENT: Invalid arguments: argument "n" must be a number, got NaN.',
    );
    expect(read({ flag: 'yes' }, (a) => a.optionalBoolean('flag'))).toContain('must be a boolean');
    expect(read({ list: {} }, (a) => a.array('list'))).toContain('must be an array, got an object');
  });

  it('reads present values and leaves absent optionals undefined', () => {
    const a = new ToolArguments({ path: 'x', n: 2, on: false, o: { k: 1 }, l: [1] });
    expect([
      a.string('path'),
      a.number('n'),
      a.boolean('on'),
      a.object('o'),
      a.array('l'),
      a.optionalString('none'),
    ]).toEqual(['x', 2, false, { k: 1 }, [1], undefined]);
    expect(new ToolArguments('garbage').has('x')).toBe(false);
  });
});
