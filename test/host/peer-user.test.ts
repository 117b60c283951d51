/**
 * Rule: on a machine shared by several accounts, the host answers only processes of the account it
 * runs as. Every account can reach 127.0.0.1, so a process of another account gets 403 everywhere
 * (the UI page, the one-time links that open a UI session, /mcp, the RPC routes, the event socket),
 * and never the token or a session. The owner is read from the kernel's socket table (/proc/net/tcp on Linux).
 */
import { request } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { cachedPeerUid, tableOwners } from '../../tools/host/http/peer-uid';
import { type TestHost, startTestHost } from './harness';
import { openPersonSession } from '../support/person-session';

const OTHER_ACCOUNT = 4242;

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; body: string; cookie: string[] }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          cookie: res.headers['set-cookie'] ?? [],
        }),
      );
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

describe('the kernel socket table', () => {
  const TABLE = [
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
    '   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1 1 0 100 0 0 10 0',
    '   1: 0100007F:D431 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  4242        0 2 1 0 20 4 30 10 -1',
    '   2: 0100007F:1F90 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1000        0 3 1 0 20 4 30 10 -1',
  ].join('\n');

  const uidInTable = (table: string, clientPort: number, serverPort: number) =>
    tableOwners(table).get(`${clientPort}:${serverPort}`);

  it('names the owner of the client end of a connection, not the server end', () => {
    expect(uidInTable(TABLE, 0xd431, 0x1f90)).toBe(4242);
    expect(uidInTable(TABLE, 0x1f90, 0xd431)).toBe(1000);
    expect(uidInTable(TABLE, 0xd432, 0x1f90)).toBeUndefined();
  });

  const LATER_ROW =
    '   3: 0100007F:D432 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1001        0 4 1 0 20 4 30 10 -1';

  it('is read once for a burst of connections, and again for a connection the last read did not have', async () => {
    const reads: string[] = [];
    let clock = 0;
    let table = TABLE;
    const lookup = cachedPeerUid(
      (path) => (reads.push(path), path.endsWith('tcp6') ? TABLE.split('\n')[0]! : table),
      250,
      () => clock,
    );
    expect(await lookup(0xd431, 0x1f90)).toBe(4242);
    expect(await lookup(0x1f90, 0xd431)).toBe(1000);
    expect(reads).toEqual(['/proc/net/tcp', '/proc/net/tcp6']);
    table = `${TABLE}\n${LATER_ROW}`;
    expect(await lookup(0xd432, 0x1f90)).toBe(1001);
    expect(reads).toHaveLength(4);
    clock = 1_000;
    expect(await lookup(0xd431, 0x1f90)).toBe(4242);
    expect(reads).toHaveLength(6);
  });

  it('is read off the event loop, one read at a time; a read begun before a lookup sees its connection', async () => {
    // Each read waits until the test lets it finish, as a read on libuv's threads would.
    const pending: Array<{ path: string; finish: (table: string) => void }> = [];
    const lookup = cachedPeerUid((path) => new Promise((finish) => pending.push({ path, finish })));
    const finishRead = async (table: string) => {
      for (const path of ['/proc/net/tcp', '/proc/net/tcp6']) {
        await new Promise((r) => setImmediate(r));
        const read = pending.shift();
        expect(read?.path).toBe(path);
        read?.finish(path.endsWith('tcp6') ? TABLE.split('\n')[0]! : table);
      }
    };
    const first = lookup(0xd431, 0x1f90);
    const together = lookup(0x1f90, 0xd431);
    await new Promise((r) => setImmediate(r));
    // A connection accepted while that read is under way: the read may predate it, so the next one decides.
    const accepted = lookup(0xd432, 0x1f90);
    await finishRead(TABLE);
    expect(await first).toBe(4242);
    expect(await together).toBe(1000);
    await finishRead(`${TABLE}\n${LATER_ROW}`);
    expect(await accepted).toBe(1001);
    expect(pending).toEqual([]);
  });

  it('finds this process as the owner of a live loopback connection it opened', async () => {
    if (process.platform !== 'linux') throw new Error('This test reads /proc/net/tcp and needs Linux.');
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const serverPort = (server.address() as { port: number }).port;
    const socket = (await import('node:net')).connect(serverPort, '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    expect(await cachedPeerUid()(socket.localPort ?? 0, serverPort)).toBe(process.getuid?.());
    socket.destroy();
    server.close();
  });
});

describe('a host reached by a process of another account', () => {
  let t: TestHost;
  beforeAll(async () => {
    t = await startTestHost({ peerUid: () => OTHER_ACCOUNT });
  });
  afterAll(async () => t?.dispose());

  it('refuses the UI page and hands out no session cookie', async () => {
    const r = await get(t.host.address.port, '/');
    expect(r.status).toBe(403);
    expect(r.cookie).toEqual([]);
    expect(r.body).not.toContain(t.host.token);
    expect(r.body).toContain('another account');
  });

  it('refuses a one-time UI link and sets no session cookie', async () => {
    const link = new URL(t.host.uiLink());
    const r = await get(t.host.address.port, link.pathname);
    expect(r.status).toBe(403);
    expect(r.cookie).toEqual([]);
    expect(r.body).toContain('another account');
  });

  it('refuses MCP and RPC even with the right token', async () => {
    const auth = { authorization: `Bearer ${t.host.token}`, 'content-type': 'application/json' };
    expect((await get(t.host.address.port, '/mcp', auth, 'POST')).status).toBe(403);
    expect((await get(t.host.address.port, '/api/rpc/info', auth, 'POST')).status).toBe(403);
  });

  it('refuses the event socket', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${t.host.address.port}/api/events?token=${t.host.token}`);
    const outcome = await new Promise<string>((resolve) => {
      ws.on('open', () => resolve('open'));
      ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
      ws.on('error', (e) => resolve(e.message));
    });
    ws.terminate();
    expect(outcome).toMatch(/403/);
  });
});

describe('a host reached by its own account', () => {
  let t: TestHost;
  beforeAll(async () => {
    t = await startTestHost();
  });
  afterAll(async () => t?.dispose());

  it('answers as usual', async () => {
    expect((await get(t.host.address.port, '/healthz')).status).toBe(200);
    const person = await openPersonSession(t.host.uiLink());
    expect((await person.rpc('info')).status).toBe(200);
  });
});
