/**
 * Rule: every schema Toolgate publishes in tools/list is portable JSON Schema that a strict
 * validator takes without a warning: Ajv in strict mode (the validator the MCP SDK uses, for
 * draft-07 and 2020-12) compiles each input and output schema as a real MCP client lists it, and
 * none has a `type` array, an empty `{}` schema, a closed `additionalProperties`, or a bound no
 * model ever meets (±9007199254740991).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost, withGithubToken } from './harness';

let t: TestHost;
let client: Client;
let tools: McpTool[];

beforeAll(async () => {
  t = await startTestHost(withGithubToken());
  client = await connectClient(t.host, 'schema-checker');
  tools = (await client.listTools()).tools;
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

type Schema = Record<string, unknown>;

function published(): Array<[string, Schema]> {
  const out: Array<[string, Schema]> = [];
  for (const tool of tools) {
    out.push([`${tool.name} input`, tool.inputSchema as Schema]);
    if (tool.outputSchema) out.push([`${tool.name} output`, tool.outputSchema as Schema]);
  }
  return out;
}

/** Compiles with a strict Ajv whose logger turns every warning into a failure. */
function strictCompile(kind: 'draft-07' | '2020-12', schema: Schema): string[] {
  const problems: string[] = [];
  const logger = {
    log: () => undefined,
    warn: (...args: unknown[]) => problems.push(`warn: ${args.join(' ')}`),
    error: (...args: unknown[]) => problems.push(`error: ${args.join(' ')}`),
  };
  const options = { strict: true, allErrors: true, logger } as const;
  const ajv = kind === 'draft-07' ? new Ajv(options) : new Ajv2020(options);
  addFormats(ajv);
  try {
    ajv.compile(schema);
  } catch (e) {
    problems.push((e as Error).message);
  }
  return problems;
}

/** Every subschema, with a JSON pointer-ish path, of what we publish. */
function* subschemas(schema: unknown, path = '#'): Generator<[string, Schema]> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return;
  const s = schema as Schema;
  yield [path, s];
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions']) {
    const group = s[key];
    if (group && typeof group === 'object')
      for (const [name, sub] of Object.entries(group)) yield* subschemas(sub, `${path}/${key}/${name}`);
  }
  for (const key of ['items', 'additionalProperties', 'not', 'propertyNames', 'contains']) {
    if (typeof s[key] === 'object') yield* subschemas(s[key], `${path}/${key}`);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    const list = s[key];
    if (Array.isArray(list)) for (const [i, sub] of list.entries()) yield* subschemas(sub, `${path}/${key}/${i}`);
  }
}

/** What says which values a schema accepts; a schema with none of these accepts anything and says nothing. */
const SAYS_WHAT = ['type', 'anyOf', 'oneOf', 'allOf', 'enum', 'const', '$ref', 'not'];

describe('published schemas', () => {
  it('are listed for every tool', () => {
    expect(tools.length).toBeGreaterThan(50);
  });

  it.each(['draft-07', '2020-12'] as const)('compile in Ajv strict mode (%s) without a warning', (kind) => {
    const problems = published()
      .map(([where, schema]) => [where, strictCompile(kind, schema)] as const)
      .filter(([, p]) => p.length > 0);
    expect(JSON.stringify(problems)).toBe('[]');
  });

  it('have no type arrays, no empty schemas, no closed objects and no ±2^53 bounds', () => {
    const found: string[] = [];
    for (const [where, schema] of published()) {
      if (schema.type !== 'object') found.push(`${where}: the root is not an object`);
      if ('$schema' in schema) found.push(`${where}: $schema`);
      for (const [path, s] of subschemas(schema)) {
        const at = `${where} ${path}`;
        if (Array.isArray(s.type)) found.push(`${at}: type array`);
        if (path !== '#' && !SAYS_WHAT.some((k) => k in s)) found.push(`${at}: says nothing of what it accepts`);
        if (s.additionalProperties === false) found.push(`${at}: additionalProperties false`);
        for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'])
          if (typeof s[k] === 'number' && Math.abs(s[k] as number) >= Number.MAX_SAFE_INTEGER)
            found.push(`${at}: ${k} ${s[k]}`);
      }
    }
    expect(found.join('\n')).toBe('');
  });
});
