/**
 * Rule: a schema Toolgate imports (a remote MCP server's tool, a legacy JSON string) that closes
 * its objects with `additionalProperties: false` still tolerates fields it does not name, as every
 * Toolgate tool does: the call is checked for what the schema does say (a missing `path` is
 * refused, naming it), the unknown field reaches the remote server, which decides, and the schema
 * Toolgate publishes for it is open too.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { success } from '../../tools/core/result';
import type { Tool } from '../../tools/core/tool';
import { proxyTool } from '../../tools/mcp-client/proxy-tool';
import { type TestHost, addTestTools, connectClient, startTestHost, textOf } from '../host/harness';

const CLOSED = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    options: { type: 'object', properties: { depth: { type: 'integer' } }, additionalProperties: false },
  },
  required: ['path'],
  additionalProperties: false,
};

let t: TestHost;
let client: Client;
const received: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  t = await startTestHost();
  const remote = proxyTool(
    'files',
    'mcp.files.read',
    { name: 'read', description: 'Reads a file.', inputSchema: CLOSED as never, annotations: { readOnlyHint: true } },
    async (_name, args) => {
      received.push(args);
      return success(`read ${String(args.path)}`);
    },
  );
  addTestTools(t.host, remote as Tool);
  client = await connectClient(t.host, 'imported-schema-agent');
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

describe('a remote tool whose schema says additionalProperties: false', () => {
  it('passes {path, junk} through to the server instead of refusing "junk"', async () => {
    const r = await client.callTool({
      name: 'mcp_files_read',
      arguments: { path: 'a.txt', junk: 1, options: { depth: 2, extra: true } },
    });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toBe('read a.txt');
    expect(received.at(-1)).toEqual({ path: 'a.txt', junk: 1, options: { depth: 2, extra: true } });
  });

  it('still refuses what the schema does say, naming the field', async () => {
    const r = await client.callTool({ name: 'mcp_files_read', arguments: { junk: 1 } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('INVALID_ARGUMENT: Invalid arguments: missing required argument "path".');
    expect(textOf(r)).not.toContain('Unrecognized key');
  });

  it('is published open, with no closed object anywhere', async () => {
    const listed = (await client.listTools()).tools.find((x) => x.name === 'mcp_files_read');
    expect(listed?.inputSchema).toMatchObject({ type: 'object', required: ['path'] });
    expect(JSON.stringify(listed?.inputSchema)).not.toContain('additionalProperties');
  });
});
