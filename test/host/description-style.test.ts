/**
 * Rule (docs/adding-a-tool.md#schemas-and-descriptions): every tool is described in one style, as
 * a real MCP client lists it. A tool's description is one or two sentences of what it does and
 * when to use it, then only what a model could get wrong: at most 320 characters, one line. A
 * field's description is there only where its name and type do not say it, at most 100
 * characters, and never restates a default the schema already gives.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost, withGithubToken } from './harness';

const TOOL_DESCRIPTION_MAX = 320;
const FIELD_DESCRIPTION_MAX = 100;

let t: TestHost;
let client: Client;
let tools: McpTool[];

beforeAll(async () => {
  t = await startTestHost(withGithubToken());
  client = await connectClient(t.host, 'style-checker');
  tools = (await client.listTools()).tools;
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

type Schema = Record<string, unknown>;

/** Every described subschema of a tool's input, with its field path. */
function* describedFields(schema: unknown, path = ''): Generator<[string, Schema]> {
  if (typeof schema !== 'object' || schema === null) return;
  const s = schema as Schema;
  if (path && typeof s.description === 'string') yield [path, s];
  for (const [name, sub] of Object.entries((s.properties as Record<string, unknown>) ?? {}))
    yield* describedFields(sub, path ? `${path}.${name}` : name);
  if (s.items) yield* describedFields(s.items, `${path}[]`);
  for (const key of ['anyOf', 'allOf'])
    for (const sub of (s[key] as unknown[]) ?? []) yield* describedFields(sub, path);
}

describe('tool descriptions', () => {
  it(`are one line of at most ${TOOL_DESCRIPTION_MAX} characters`, () => {
    const long = tools
      .filter((x) => (x.description ?? '').length > TOOL_DESCRIPTION_MAX || /\n/.test(x.description ?? ''))
      .map((x) => `${x.name} (${x.description?.length})`);
    expect(long).toEqual([]);
    for (const x of tools) expect(x.description?.length ?? 0, x.name).toBeGreaterThan(20);
  });
});

describe('field descriptions', () => {
  it(`are at most ${FIELD_DESCRIPTION_MAX} characters`, () => {
    const long: string[] = [];
    for (const x of tools)
      for (const [path, s] of describedFields(x.inputSchema))
        if ((s.description as string).length > FIELD_DESCRIPTION_MAX)
          long.push(`${x.name}.${path} (${(s.description as string).length})`);
    expect(long).toEqual([]);
  });

  it('never restate a default the schema gives', () => {
    const restated: string[] = [];
    for (const x of tools)
      for (const [path, s] of describedFields(x.inputSchema))
        if ('default' in s && /\bdefault\b/i.test(s.description as string)) restated.push(`${x.name}.${path}`);
    expect(restated).toEqual([]);
  });
});
