/**
 * Attack (issue 12, item 7): after `kill -9` of the host, DATA/host.json stayed, and a process of
 * another account that took its port received the real token from `toolgate mcp-stdio --data-dir`.
 * Rule: the bridge sends the token only to the host it belongs to. host.json counts only while its
 * pid lives; every connection's listening socket must belong to the bridge's own account (the
 * kernel's socket table); and the host proves it holds the token (an HMAC of the bridge's nonce)
 * before the token crosses. A server that cannot prove it gets the nonce and nothing else.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readHostFile } from '../../tools/host/host-file';
import { HOST_PROOF_PATH, hostProof, tokenDigest, tokenHint } from '../../tools/host/http/host-proof';
import { listenerUids } from '../../tools/host/http/listener-uid';
import { ownAccountFetch } from '../../tools/host/mcp/own-account-fetch';
import { proveHost } from '../../tools/host/mcp/prove-host';
import { runStdioBridge } from '../../tools/host/mcp/stdio-bridge';
import { startTestHost, textOf } from '../host/harness';
import { type ServedHost, serve } from '../host/process-harness';
import { ensureBuilt } from '../support/build';
import { openPersonSession } from '../support/person-session';

const BIN = resolve(__dirname, '../../bin/toolgate.cjs');
const OTHER_ACCOUNT = 4242;
const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'mcp-host', version: '1.0.0' } },
})}\n`;

const dirs: string[] = [];
function dataDir(): { dir: string; token: string } {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-proof-'));
  dirs.push(dir);
  const token = randomBytes(24).toString('base64url');
  writeFileSync(join(dir, 'token'), `${token}\n`, { mode: 0o600 });
  return { dir, token };
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A plain HTTP server that records every byte it receives and answers every request. */
interface Stranger {
  server: Server;
  port: number;
  received(): string;
}
const strangers: Stranger[] = [];
async function stranger(answer: (body: string) => unknown, port = 0): Promise<Stranger> {
  const bytes: Buffer[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(body))));
  });
  server.on('connection', (socket) => socket.on('data', (c: Buffer) => bytes.push(c)));
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const s = {
    server,
    port: (server.address() as { port: number }).port,
    received: () => Buffer.concat(bytes).toString('latin1'),
  };
  strangers.push(s);
  return s;
}
afterEach(async () => {
  for (const s of strangers.splice(0)) {
    s.server.closeAllConnections();
    await new Promise((r) => s.server.close(r));
  }
});

function plantHostFile(dir: string, port: number, pid: number): void {
  const base = `http://127.0.0.1:${port}/`;
  writeFileSync(join(dir, 'host.json'), JSON.stringify({ port, ui: base, mcp: `${base}mcp`, pid }), { mode: 0o600 });
}

/** Runs `toolgate mcp-stdio` as an MCP host would (an initialize on stdin) until it exits. */
async function runBridge(dir: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'mcp-stdio', '--data-dir', dir], {
    env: { ...process.env, TOOLGATE_QUIET: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stdin?.on('error', () => undefined);
  child.stdin?.write(INITIALIZE);
  // A bridge that wrongly stays up is ended, so the test fails on its exit code rather than hanging.
  const stuck = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  clearTimeout(stuck);
  return { code, stderr, stdout };
}

/** A uid table in the kernel's format with one listening socket on `port`, owned by `uid`. */
function tableWithListener(port: number, uid: number): (path: string) => string {
  const header = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const row =
    `   0: 0100007F:${hex} 00000000:0000 0A 00000000:00000000 ` + `00:00000000 00000000 ${uid} 0 1 1 0 100 0 0 10 0`;
  return (path) => (path.endsWith('tcp6') ? header : `${header}\n${row}`);
}

beforeAll(async () => ensureBuilt(), 180_000);

describe('a process listening on the port that host.json names', () => {
  it('receives the nonce and never the token: the bridge refuses it, says why, and exits non-zero', async () => {
    const { dir, token } = dataDir();
    const fake = await stranger(() => ({ proof: 'trust me', ok: true, result: {} }));
    plantHostFile(dir, fake.port, process.pid);
    const run = await runBridge(dir);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`refused to send the token to http://127.0.0.1:${fake.port}/mcp`);
    expect(run.stderr).toContain('could not prove it holds the token');
    expect(run.stdout).toBe('');
    expect(fake.received()).toContain(`POST ${HOST_PROOF_PATH}`);
    expect(fake.received()).not.toContain(token);
    expect(fake.received().toLowerCase()).not.toContain('authorization');
  });

  it('is refused too when it answers with a well-formed proof made with another token', async () => {
    const { dir, token } = dataDir();
    const otherToken = randomBytes(24).toString('base64url');
    const fake = await stranger((body) => ({
      proof: hostProof(tokenDigest(otherToken), (JSON.parse(body) as { nonce: string }).nonce),
    }));
    plantHostFile(dir, fake.port, process.pid);
    const run = await runBridge(dir);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('could not prove it holds the token');
    expect(fake.received()).not.toContain(token);
  });
});

describe('a host killed with kill -9', () => {
  let served: ServedHost | undefined;
  afterAll(async () => {
    served?.child.kill('SIGKILL');
    await served?.exited;
  });

  it('leaves host.json, stale to the bridge, which names the dead pid; who took the port gets nothing', async () => {
    const { dir } = dataDir();
    served = await serve(dir);
    const pid = served.child.pid ?? 0;
    const port = Number(new URL(served.ready.ui).port);
    served.child.kill('SIGKILL');
    await served.exited;
    expect(existsSync(join(dir, 'host.json'))).toBe(true);
    const squatter = await stranger(() => ({ proof: 'x' }), port);
    const run = await runBridge(dir);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`no Toolgate host is running for ${dir} (stale host.json from pid ${pid})`);
    expect(squatter.received()).toBe('');
  });
});

describe('host.json', () => {
  it('is not believed when its pid is a process of another account, or when it is not a host record', () => {
    const { dir } = dataDir();
    plantHostFile(dir, 7878, 1);
    expect(readHostFile(dir, () => 'other-account')).toEqual({
      ok: false,
      message: expect.stringContaining(
        `no Toolgate host of yours is running for ${dir} (host.json names pid 1, a process of another account)`,
      ),
    });
    writeFileSync(join(dir, 'host.json'), '{"port": 99999, "pid": 1, "mcp": "x"}');
    expect(readHostFile(dir, () => 'alive')).toEqual({
      ok: false,
      message: expect.stringContaining('is not a host record'),
    });
  });

  it('is removed when the host stops on SIGINT', async () => {
    const { dir } = dataDir();
    const served = await serve(dir);
    expect(existsSync(join(dir, 'host.json'))).toBe(true);
    served.child.kill('SIGINT');
    expect(await served.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(join(dir, 'host.json'))).toBe(false);
  });

  it('is removed when the host’s process dies of an uncaught error', async () => {
    const { dir } = dataDir();
    const script = `require(${JSON.stringify(resolve(__dirname, '../../tools/host/host.ts'))})
      .startHost({ dataDir: ${JSON.stringify(dir)}, port: 0 })
      .then(() => { process.stdout.write('up\\n'); process.stdin.once('data', () => { throw new Error('boom'); }); });`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
      env: { ...process.env, TOOLGATE_QUIET: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    let sawHostFile = false;
    // The host throws only once this side has looked: the file is seen while the host runs.
    child.stdout.once('data', () => {
      sawHostFile = existsSync(join(dir, 'host.json'));
      child.stdin.write('throw\n');
    });
    expect(await exited).toBe(1);
    expect(stderr).toContain('boom');
    expect(sawHostFile).toBe(true);
    expect(existsSync(join(dir, 'host.json'))).toBe(false);
  });
});

describe('a listener of another account on the host’s port', () => {
  it('gets not a single byte: the owner of the listening socket is checked before anything is written', async () => {
    const { token } = dataDir();
    const fake = await stranger(() => ({ proof: 'x' }));
    const connection = ownAccountFetch({ readTable: tableWithListener(fake.port, OTHER_ACCOUNT) });
    const verdict = await proveHost({ mcpUrl: `http://127.0.0.1:${fake.port}/mcp`, token, fetch: connection.fetch });
    await connection.close();
    expect(verdict).toEqual({
      ok: false,
      message: expect.stringContaining(
        `the process listening on port ${fake.port} belongs to another account of this machine (uid ${OTHER_ACCOUNT}`,
      ),
    });
    expect(fake.received()).toBe('');
  });

  it('gets nothing either if it takes the port while a bridge runs: the next call ends as a tool error', async () => {
    const t = await startTestHost();
    const port = t.host.address.port;
    let owner: number | undefined;
    const kernel = (path: string) =>
      owner === undefined ? readFileSync(path, 'utf8') : tableWithListener(port, owner)(path);
    const connection = ownAccountFetch({ readTable: kernel });
    const [downstream, clientSide] = InMemoryTransport.createLinkedPair();
    const bridge = await runStdioBridge({
      mcpUrl: t.host.address.mcp,
      token: t.host.token,
      version: 'test',
      fetch: connection.fetch,
      downstream,
    });
    const client = new Client({ name: 'mcp-host', version: '1.0.0' });
    await client.connect(clientSide);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await t.dispose();
    const squatter = await stranger(() => ({ proof: 'x' }), port);
    owner = OTHER_ACCOUNT;
    const result = await client.callTool({
      name: 'version_compare',
      arguments: { operation: 'compare', a: '1', b: '2' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('EXECUTION_FAILED: The Toolgate host did not answer');
    expect(textOf(result)).toContain(`belongs to another account of this machine (uid ${OTHER_ACCOUNT}`);
    expect(squatter.received()).toBe('');
    await client.close();
    await bridge.close();
    await connection.close();
  });

  it('is told apart by the kernel’s table, which names this account as owner of a socket it listens on', async () => {
    if (process.platform !== 'linux') throw new Error('This test reads /proc/net/tcp and needs Linux.');
    const own = await stranger(() => ({}));
    expect(listenerUids(own.port)).toEqual([process.getuid?.()]);
  });
});

describe('the real host', () => {
  let served: ServedHost;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-proof-host-'));
    dirs.push(dir);
    served = await serve(dir);
  });
  afterAll(async () => {
    served?.child.kill('SIGTERM');
    await served?.exited;
  });

  it("answers a nonce with the HMAC of the token's digest, an unknown token 404, a bad one with a hint", async () => {
    const token = readFileSync(join(dir, 'token'), 'utf8').trim();
    const hint = tokenHint(tokenDigest(token));
    const nonce = randomBytes(32).toString('base64url');
    const challenge = (body: string) =>
      fetch(new URL(HOST_PROOF_PATH, served.ready.ui), {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
    const ok = await challenge(JSON.stringify({ nonce, token: hint }));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ proof: hostProof(tokenDigest(token), nonce) });
    const person = await openPersonSession(served.ready.uiLink);
    const created = (await person.rpc('createClientToken', { name: 'claude-desktop' })).body as { token: string };
    const forClient = await challenge(JSON.stringify({ nonce, token: tokenHint(tokenDigest(created.token)) }));
    expect(await forClient.json()).toEqual({ proof: hostProof(tokenDigest(created.token), nonce) });
    const unknown = await challenge(
      JSON.stringify({ nonce, token: tokenHint(tokenDigest('not-a-token-of-this-host')) }),
    );
    expect(unknown.status).toBe(404);
    const bad = await challenge(JSON.stringify({ nonce: 'short', token: hint }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('22 to 128 base64url characters');
  });

  it('passes the proof, and tools/list and tools/call work through the bridge', async () => {
    const client = new Client({ name: 'mcp-host', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp-stdio', '--data-dir', dir],
        env: { ...process.env, TOOLGATE_QUIET: '1' } as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('json_transform');
    const result = await client.callTool({
      name: 'json_transform',
      arguments: { data: [1, 2], pipeline: [{ op: 'limit', count: 1 }] },
    });
    expect(result.isError).toBeFalsy();
    await client.close();
  });
});
