/**
 * Rule: the endpoint answers only loopback clients that carry their key: a client's token on /mcp,
 * the person's UI session on the UI API. No or wrong token → 401; an Origin that is not the UI's
 * own → 403; a Host that is not a loopback name → 403 (DNS rebinding); an oversized body → 413;
 * malformed JSON → the JSON-RPC parse error. The token file is private to its owner, and the port
 * is open on 127.0.0.1 alone. (The person's key itself: test/security/person-credential.test.ts.)
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, startTestHost } from './harness';
import { type PersonSession, openPersonSession } from '../support/person-session';

let t: TestHost;
let person: PersonSession;
beforeAll(async () => {
  t = await startTestHost();
  person = await openPersonSession(t.host.uiLink());
});
afterAll(async () => t?.dispose());

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

function raw(
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: t.host.address.port,
        path,
        method: opts.method ?? 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...opts.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

const auth = () => ({ authorization: `Bearer ${t.host.token}` });

describe('the MCP endpoint refuses', () => {
  it('a request without a token (401)', async () => {
    expect((await raw('/mcp', { body: INIT })).status).toBe(401);
  });

  it('a wrong token (401)', async () => {
    expect((await raw('/mcp', { body: INIT, headers: { authorization: 'Bearer not-the-token' } })).status).toBe(401);
  });

  it('a foreign Origin even with the token (403)', async () => {
    const r = await raw('/mcp', { body: INIT, headers: { ...auth(), origin: 'https://evil.example' } });
    expect(r.status).toBe(403);
    expect(r.body).toContain('Origin');
  });

  it('a Host header that is not a loopback name (403, DNS rebinding)', async () => {
    const r = await raw('/mcp', {
      body: INIT,
      headers: { ...auth(), host: `attacker.example:${t.host.address.port}` },
    });
    expect(r.status).toBe(403);
  });

  it('an oversized body (413)', async () => {
    const r = await raw('/mcp', { body: Buffer.alloc(5 * 1024 * 1024, 0x20), headers: auth() });
    expect(r.status).toBe(413);
  });

  it('malformed JSON with the JSON-RPC parse error', async () => {
    const r = await raw('/mcp', { body: '{"jsonrpc": "2.0", "id": 1,', headers: auth() });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
  });

  it('an unknown session id', async () => {
    const r = await raw('/mcp', { body: INIT, headers: { ...auth(), 'mcp-session-id': 'no-such-session' } });
    expect(r.status).toBe(404);
  });
});

describe('the endpoint admits', () => {
  it('the UI origin and loopback names with the token', async () => {
    const origin = `http://127.0.0.1:${t.host.address.port}`;
    expect((await raw('/mcp', { body: INIT, headers: { ...auth(), origin } })).status).toBe(200);
    expect(
      (await raw('/mcp', { body: INIT, headers: { ...auth(), host: `localhost:${t.host.address.port}` } })).status,
    ).toBe(200);
  });
});

describe('the UI API', () => {
  it('refuses calls without a session, and a foreign origin even with one', async () => {
    expect((await raw('/api/rpc/info', { body: '{}' })).status).toBe(401);
    expect((await person.rpc('info', {}, { origin: 'http://evil.example' })).status).toBe(403);
  });

  it('answers the person’s session, and names bad input fields', async () => {
    const ok = await person.rpc('info');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ mode: 'headless', mcpUrl: t.host.address.mcp });
    const bad = await person.rpc('callTool', { args: 5 });
    expect(bad.status).toBe(400);
    expect((bad.body as { fields: string[] }).fields).toEqual(['toolId', 'args']);
    expect((await person.rpc('noSuchMethod')).status).toBe(404);
  });
});

describe('the token', () => {
  it('is kept in the data dir readable by its owner only', () => {
    expect(statSync(join(t.dataDir, 'token')).mode & 0o777).toBe(0o600);
  });
});

describe('the listening socket', () => {
  /** 'connected' or the error code of a TCP connection attempt. */
  const tryConnect = (host: string) =>
    new Promise<string>((resolve) => {
      const socket = connect({ host, port: t.host.address.port });
      socket.once('connect', () => (socket.destroy(), resolve('connected')));
      socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    });

  it('is open on 127.0.0.1 and on no other address of this machine, loopback ones included', async () => {
    expect(await tryConnect('127.0.0.1')).toBe('connected');
    // Every 127.x.y.z reaches this machine on Linux: a socket bound to all addresses would answer.
    expect(await tryConnect('127.0.0.2')).toBe('ECONNREFUSED');
    expect(['ECONNREFUSED', 'EADDRNOTAVAIL', 'ENETUNREACH']).toContain(await tryConnect('::1'));
  });
});
