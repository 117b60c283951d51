/**
 * Rule, across the whole catalog a host registers: bad input never reaches a tool. Arguments that
 * are not an object, and every declared field given a value of the wrong type, are refused as
 * INVALID_ARGUMENT naming the field (the words a model can act on), and no input pollutes
 * Object.prototype. Generated from each tool's own JSON Schema, so a tool added later is covered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tool } from '../../tools/core/tool';
import { type TestHost, startTestHost } from './harness';

let t: TestHost;
let tools: Tool[];
beforeAll(async () => {
  // With a GitHub token the GitHub tools are in the catalog too (validation never reaches GitHub).
  t = await startTestHost({
    env: { ...process.env, TOOLGATE_GITHUB_TOKEN: 'ghp_badInputCheck000000000000000000000001' },
  });
  tools = t.host.registry.list();
});
afterAll(async () => t?.dispose());

type Property = { type?: unknown; anyOf?: unknown; oneOf?: unknown; allOf?: unknown; enum?: unknown; const?: unknown };

/** A value no schema of this JSON type accepts, also not after coercion. */
const WRONG: Record<string, unknown> = {
  string: 12345,
  number: 'not a number',
  integer: 'not a number',
  boolean: 'yes',
  array: 'not an array',
  object: 17,
};

/** Fields with one concrete JSON type: the ones whose wrong value is unambiguous. */
function typedFields(tool: Tool): Array<[string, string]> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, Property>;
  return Object.entries(properties).flatMap(([name, p]) =>
    typeof p.type === 'string' && p.type in WRONG && !p.anyOf && !p.oneOf && !p.allOf
      ? [[name, p.type] as [string, string]]
      : [],
  );
}

describe('every tool of the catalog', () => {
  it('is there to check: the host registers the whole catalog', () => {
    expect(tools.length).toBeGreaterThanOrEqual(70);
    expect(tools.reduce((n, tool) => n + typedFields(tool).length, 0)).toBeGreaterThan(150);
  });

  it('refuses arguments that are not an object, naming the arguments as a whole', () => {
    const accepted: string[] = [];
    for (const tool of tools) {
      for (const args of [[], 'rm -rf /', 42, true]) {
        const v = tool.validate(args);
        if (v.ok) accepted.push(`${tool.id} ← ${JSON.stringify(args)}`);
        else
          expect([tool.id, v.error.code, v.error.data?.fields]).toEqual([
            tool.id,
            'INVALID_ARGUMENT',
            expect.arrayContaining(['(arguments)']),
          ]);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('refuses a wrongly typed field as INVALID_ARGUMENT that names the field', () => {
    const accepted: string[] = [];
    for (const tool of tools) {
      for (const [field, type] of typedFields(tool)) {
        const v = tool.validate({ [field]: WRONG[type] });
        if (v.ok) {
          accepted.push(`${tool.id}.${field} (${type}) took ${JSON.stringify(WRONG[type])}`);
          continue;
        }
        expect([tool.id, field, v.error.code]).toEqual([tool.id, field, 'INVALID_ARGUMENT']);
        expect([tool.id, v.error.data?.fields]).toEqual([tool.id, expect.arrayContaining([field])]);
        expect(v.error.message).toContain(`"${field}"`);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('is not a way to pollute Object.prototype', () => {
    const hostile = JSON.parse(
      '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}',
    ) as unknown;
    for (const tool of tools) tool.validate(hostile);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
