/**
 * The host's local MCP socket (DATA/mcp.sock), the stdio bridge's way in. Rules: only this account
 * reaches it (0600 in the 0700 data dir); a connection that does not first present a valid client
 * token is told why and served nothing; a connection is one session of the token's client, with
 * the same toolsets; the connection is the caller, so when it ends a call waiting for a person is
 * withdrawn; a revoked token ends its connections; and the bridge sends its token only to a socket
 * of its own account in a directory nobody else can write to. Real host, real sockets, the SDK.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { type Socket, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpSocketPath } from '../../tools/host/mcp/mcp-socket';
import { openHostSocket, relayStdio, socketTrust } from '../../tools/host/mcp/socket-bridge';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { ensureBuilt } from '../support/build';
import { StreamClientTransport } from '../support/stream-client-transport';

const BIN = resolve(__dirname, '../../bin/toolgate.cjs');
const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
})}\n`;

/** Everything a raw connection receives until the host closes it. */
function exchange(path: string, lines: string): Promise<string> {
  return new Promise((done, fail) => {
    const socket = connect(path);
    let got = '';
    socket.on('data', (c: Buffer) => (got += c.toString()));
    socket.once('connect', () => socket.write(lines));
    socket.once('close', () => done(got));
    socket.once('error', fail);
  });
}

/** An MCP client on a socket session opened with `token`. */
async function socketClient(path: string, token: string): Promise<{ client: Client; socket: Socket }> {
  const opened = await openHostSocket(path, token);
  if (!opened.ok) throw new Error(opened.message);
  const client = new Client({ name: 'socket-agent', version: '1.0.0' });
  await client.connect(new StreamClientTransport(opened.socket, opened.socket));
  return { client, socket: opened.socket };
}

let t: TestHost;
let path: string;
const dirs: string[] = [];

beforeAll(async () => {
  t = await startTestHost({ approvalTimeoutMs: 60_000 });
  path = mcpSocketPath(t.dataDir);
});
afterAll(async () => {
  await t?.dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the local MCP socket', () => {
  it('is the owner’s alone: a 0600 socket in the 0700 data dir', () => {
    const socket = statSync(path);
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);
    expect(statSync(t.dataDir).mode & 0o777).toBe(0o700);
    expect(socketTrust(path)).toBeUndefined();
  });

  it('refuses a wrong token with the reason and answers none of the MCP that follows it', async () => {
    const got = await exchange(path, `{"token":"not-a-token"}\n${INITIALIZE}`);
    expect(got).toBe(`${JSON.stringify({ ok: false, error: 'Invalid or revoked client token.' })}\n`);
  });

  it('refuses a first line that is not a hello, and MCP sent without one', async () => {
    const got = await exchange(path, INITIALIZE);
    expect(JSON.parse(got)).toEqual({ ok: false, error: 'The first line must be {"token":"…"}, the client token.' });
    expect(JSON.parse(await exchange(path, 'hello\n')).error).toContain('The first line must be');
  });

  it('serves the token’s client one session, listing exactly what its HTTP session lists', async () => {
    const { client } = await socketClient(path, t.host.token);
    const http = await connectClient(t.host);
    const names = (r: { tools: Array<{ name: string }> }) => r.tools.map((tool) => tool.name).sort();
    expect(names(await client.listTools())).toEqual(names(await http.listTools()));
    const result = await client.callTool({
      name: 'version_compare',
      arguments: { operation: 'compare', a: '1.2.0', b: '1.10.0' },
    });
    expect(result.isError).toBeFalsy();
    await client.close();
    await http.close();
  });

  it('gives a token with fewer toolsets only those tools, as over HTTP', async () => {
    const { token } = t.host.clientTokens.create('narrow', []);
    const { client } = await socketClient(path, token);
    const http = await connectClient(t.host, 'narrow-http', token);
    const names = (r: { tools: Array<{ name: string }> }) => r.tools.map((tool) => tool.name).sort();
    const listed = names(await client.listTools());
    expect(listed).toEqual(names(await http.listTools()));
    expect(listed).not.toContain('delete_file');
    await client.close();
    await http.close();
  });

  it('treats the connection as the caller: closing it withdraws the call waiting for approval', async () => {
    const workspace = join(t.dataDir, 'workspace');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'keep-me.txt'), 'still here');
    const { client, socket } = await socketClient(path, t.host.token);
    void client
      .callTool({ name: 'delete_file', arguments: { path: 'keep-me.txt' } }, undefined, { timeout: 600_000 })
      .catch(() => undefined);
    const pending = async () => t.host.api.pendingApprovals({});
    await expect.poll(pending, { timeout: 20_000 }).toHaveLength(1);
    const [card] = await pending();
    socket.destroy();
    await expect.poll(pending, { timeout: 10_000 }).toEqual([]);
    const [audit] = await t.host.api.auditLog({ limit: 1 });
    expect(audit).toMatchObject({ callId: card!.callId, decision: 'withdrawn', reason: 'caller gone' });
    expect(existsSync(join(workspace, 'keep-me.txt'))).toBe(true);
  });

  it('ends the connections of a token that is revoked', async () => {
    const created = t.host.clientTokens.create('short-lived');
    const { socket } = await socketClient(path, created.token);
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    t.host.clientTokens.revoke(created.client.id);
    await closed;
    expect(JSON.parse(await exchange(path, `{"token":"${created.token}"}\n`)).ok).toBe(false);
  });
});

describe('the bridge’s side of the socket', () => {
  it('never sends its token to a socket in a directory others can write to, nor to another account’s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-planted-'));
    dirs.push(dir);
    const planted = join(dir, 'mcp.sock');
    const received: Buffer[] = [];
    const server = createServer((s) => s.on('data', (c: Buffer) => received.push(c)));
    await new Promise<void>((r) => server.listen(planted, r));
    chmodSync(dir, 0o777);
    const opened = await openHostSocket(planted, 'secret-token');
    expect(opened).toMatchObject({ ok: false, refused: false, message: `${dir} is writable by others` });
    chmodSync(dir, 0o700);
    expect(socketTrust(planted, (process.getuid?.() ?? 0) + 1)).toContain('is not a directory of this account');
    await new Promise((r) => setTimeout(r, 100));
    expect(Buffer.concat(received).toString()).toBe('');
    await new Promise((r) => server.close(r));
  });

  it('ends a call the host leaves unanswered as a tool error when the host goes', async () => {
    const host = await startTestHost({ approvalTimeoutMs: 60_000 });
    mkdirSync(join(host.dataDir, 'workspace'), { recursive: true });
    writeFileSync(join(host.dataDir, 'workspace', 'x.txt'), 'x');
    const opened = await openHostSocket(mcpSocketPath(host.dataDir), host.host.token);
    if (!opened.ok) throw new Error(opened.message);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    relayStdio(opened.socket, opened.leftover, stdin, stdout);
    const client = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await client.connect(new StreamClientTransport(stdout, stdin));
    const waiting = client.callTool({ name: 'delete_file', arguments: { path: 'x.txt' } }, undefined, {
      timeout: 600_000,
    });
    await expect.poll(() => host.host.api.pendingApprovals({}), { timeout: 20_000 }).toHaveLength(1);
    await host.dispose();
    const result = await waiting;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('EXECUTION_FAILED: The Toolgate host did not answer: its socket closed.');
    const later = await client.callTool({
      name: 'version_compare',
      arguments: { operation: 'compare', a: '1', b: '2' },
    });
    expect(textOf(later)).toContain('The Toolgate host did not answer');
    await client.close();
  });

  it('is what `toolgate mcp-stdio --data-dir` uses: it works with no host.json to find an HTTP port by', async () => {
    await ensureBuilt();
    rmSync(join(t.dataDir, 'host.json'), { force: true });
    const client = new Client({ name: 'stdio-host', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp-stdio', '--data-dir', t.dataDir],
        env: { ...(process.env as Record<string, string>), TOOLGATE_QUIET: '1' },
      }),
    );
    const result = await client.callTool({
      name: 'version_compare',
      arguments: { operation: 'compare', a: '2.0.0', b: '1.9.9' },
    });
    expect(result.isError).toBeFalsy();
    await client.close();
  });
});
