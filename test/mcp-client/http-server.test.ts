/**
 * Rule: mcp_connect reaches Streamable HTTP servers with the given headers (whose values are never
 * shown back); tools without declared annotations get the MCP defaults, so they are gated as
 * destructive; an unreachable or refusing server is EXECUTION_FAILED with a hint, never a hang;
 * a link-local address (cloud metadata) is never contacted (the SDK follows no cross-origin redirect).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failed, type McpHarness, mcpHarness, text } from './harness';
import { HTTP_API_KEY, startMcpHttpServer } from './http-server';

let server: Awaited<ReturnType<typeof startMcpHttpServer>>;
let h: McpHarness;
beforeAll(async () => {
  server = await startMcpHttpServer();
});
afterAll(() => server.close());
beforeEach(() => {
  h = mcpHarness();
});
afterEach(() => h.dispose());

const connectArgs = () => ({ name: 'web', url: server.url, headers: { 'X-Api-Key': HTTP_API_KEY } });

describe('HTTP MCP servers that refuse or vanish', () => {
  it('reports a refused connection (missing API key) as EXECUTION_FAILED with a hint about headers', async () => {
    const error = failed(await h.call('mcp_connect', { name: 'web', url: server.url }));
    expect(error.code).toBe('EXECUTION_FAILED');
    expect(error.hint).toMatch(/headers/);
    expect(h.registry.ids().filter((id) => id.startsWith('mcp.'))).toEqual([]);
  });

  it('reports an endpoint nobody listens on as EXECUTION_FAILED', async () => {
    const gone = await startMcpHttpServer();
    await gone.close();
    const error = failed(
      await h.call('mcp_connect', { name: 'gone', url: gone.url, headers: { 'X-Api-Key': HTTP_API_KEY } }),
    );
    expect(error.code).toBe('EXECUTION_FAILED');
  });

  it('refuses headers on a stdio server and args on an http server', async () => {
    expect(
      failed(await h.call('mcp_connect', { name: 'x', command: 'node', headers: { a: 'b' } })).data?.fields,
    ).toEqual(['headers']);
    expect(failed(await h.call('mcp_connect', { name: 'x', url: server.url, args: ['a'] })).data?.fields).toEqual([
      'args',
    ]);
    expect(failed(await h.call('mcp_connect', { name: 'x', url: 'file:///tmp/mcp' })).code).toBe('INVALID_ARGUMENT');
  });

  it('answers EXECUTION_FAILED with a reconnect hint when the server goes away after connecting', async () => {
    const own = await startMcpHttpServer();
    expect(
      (await h.call('mcp_connect', { name: 'own', url: own.url, headers: { 'X-Api-Key': HTTP_API_KEY } })).ok,
    ).toBe(true);
    await own.close();
    const error = failed(await h.call('mcp_call', { server: 'own', tool: 'greet', arguments: { name: 'x' } }));
    expect(error).toMatchObject({ code: 'EXECUTION_FAILED', message: expect.stringContaining('cannot be reached') });
    expect(error.hint).toContain('mcp_connect');
  });
});

describe('connected HTTP MCP servers', () => {
  it('connects with headers, calls a tool, and never shows the header value', async () => {
    const connected = await h.call('mcp_connect', connectArgs());
    expect(text(connected)).toContain(
      `MCP server 'web' (http: ${server.url}) — connected, fixture-http 0.9.0; 2 tools:`,
    );
    expect(text(await h.call('mcp_call', { server: 'web', tool: 'greet', arguments: { name: 'Ada' } }))).toBe(
      'hello Ada',
    );
    const listing = await h.call('mcp_list', { server: 'web' });
    expect(listing.ok && listing.structured).toMatchObject({
      servers: [{ name: 'web', headerNames: ['X-Api-Key'], status: 'connected' }],
    });
    for (const result of [connected, listing]) expect(JSON.stringify(result)).not.toContain(HTTP_API_KEY);
  });

  it('gives a tool that declares no annotations the MCP defaults, so calling it asks for approval', async () => {
    await h.call('mcp_connect', connectArgs());
    expect(h.registry.get('mcp.web.undeclared')?.metadata).toMatchObject({
      risk: 'HIGH',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    });
    h.approvals.length = 0;
    h.decide = () => ({ decision: 'deny', reason: 'no' });
    expect(failed(await h.call('mcp_call', { server: 'web', tool: 'undeclared' })).code).toBe('PERMISSION_DENIED');
    expect(h.approvals.map((a) => a.toolId)).toEqual(['mcp.web.undeclared']);
    expect(text(await h.call('mcp.web.greet', { name: 'read-only needs no approval' }))).toBe(
      'hello read-only needs no approval',
    );
  });
});

describe('link-local addresses', () => {
  it('are refused before anything is sent', async () => {
    const error = failed(await h.call('mcp_connect', { name: 'meta', url: 'http://169.254.169.254/mcp' }));
    expect(error).toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringContaining('link-local') });
    expect(h.registry.ids().filter((id) => id.startsWith('mcp.'))).toEqual([]);
  });
});
