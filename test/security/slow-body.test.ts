/**
 * Rule: a request that has not fully arrived within the request timeout is ended by the host (408,
 * then the socket closed), however steadily its bytes trickle in; the timeout covers receiving a
 * request only, so a call that waits for a person longer than that still gets its answer. Open
 * connections are capped: one more is closed as it arrives. The tests set a short timeout through
 * the host's option and check that the host closed each socket, never how long it took.
 *
 * Attack reproduced (issue 12, 10): 200 connections each sending a 100 KB body one byte at a time
 * all stayed open (requestTimeout was 0).
 */
import { type Socket, connect } from 'node:net';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '../../tools/core/tool';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { type PersonSession, openPersonSession } from '../support/person-session';
import { CSRF_HEADER } from '../../shared/ui-session';

const TIMEOUT_MS = 1000;

/**
 * Sends the request head, then one body byte every `everyMs`, and never ends the socket itself:
 * resolves with what the host sent once the host closed it.
 */
function trickle(port: number, head: string, everyMs: number): Promise<string> {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  let timer: NodeJS.Timeout | undefined;
  socket.on('connect', () => {
    socket.write(head);
    timer = setInterval(() => socket.writable && socket.write('x'), everyMs);
  });
  socket.on('data', (d: Buffer) => (received += d.toString()));
  return new Promise<string>((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      resolve(received);
    });
    socket.on('error', () => undefined);
  });
}

function postHead(path: string, headers: Record<string, string>): string {
  const lines = Object.entries({
    host: '127.0.0.1',
    'content-type': 'application/json',
    'content-length': '100000',
    ...headers,
  }).map(([k, v]) => `${k}: ${v}`);
  return `POST ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

describe('slow request bodies', () => {
  let t: TestHost;
  let person: PersonSession;
  beforeAll(async () => {
    t = await startTestHost({ httpRequestTimeoutMs: TIMEOUT_MS, approvalTimeoutMs: 30_000 });
    person = await openPersonSession(t.host.uiLink());
    t.host.registry.register(
      defineTool({
        id: 'app_uninstall',
        description: 'Uninstall (test double of the device tool).',
        input: z.object({}),
        run: () => 'removed',
      }),
    );
  });
  afterAll(async () => t?.dispose());

  it('are ended: 200 connections trickling 100 KB bodies to /mcp and the UI API get 408 and are closed', async () => {
    const port = t.host.address.port;
    const origin = person.origin;
    const trickles = Array.from({ length: 200 }, (_, i) =>
      trickle(
        port,
        i % 2 === 0
          ? postHead('/mcp', { authorization: `Bearer ${t.host.token}`, accept: 'application/json, text/event-stream' })
          : postHead('/api/rpc/decideApproval', { cookie: person.cookie, origin, [CSRF_HEADER]: person.csrf }),
        200,
      ),
    );
    // The host keeps answering while they trickle.
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    const answers = await Promise.all(trickles);
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
  });

  it('do not include waiting for an answer: a call held for a person past the timeout still completes', async () => {
    const client = await connectClient(t.host, 'patient-agent');
    const call = client.callTool({ name: 'app_uninstall', arguments: {} }, undefined, { timeout: 30_000 });
    await expect.poll(() => t.host.api.pendingApprovals({})).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 3 * TIMEOUT_MS)); // the request timeout passes three times over
    const [item] = await t.host.api.pendingApprovals({});
    const decided = await person.rpc('decideApproval', { approvalId: item!.approvalId, decision: 'approve_once' });
    expect(decided.body).toMatchObject({ ok: true });
    expect(textOf(await call)).toBe('removed');
    await client.close();
  });
});

describe('open connections', () => {
  let t: TestHost;
  beforeAll(async () => {
    t = await startTestHost({ httpMaxConnections: 20 });
  });
  afterAll(async () => t?.dispose());

  /** A keep-alive connection the host has answered once (so the host surely counts it). */
  async function heldConnection(port: number): Promise<Socket> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('connect', () => socket.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n'));
      socket.once('data', () => resolve());
    });
    return socket;
  }

  it('beyond the cap are closed by the host as they arrive, and admitted again once others close', async () => {
    const port = t.host.address.port;
    const held = await Promise.all(Array.from({ length: 20 }, () => heldConnection(port)));
    const extra = connect(port, '127.0.0.1');
    const outcome = await new Promise<string>((resolve) => {
      let data = '';
      extra.on('connect', () => extra.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n'));
      extra.on('data', (d: Buffer) => (data += d.toString()));
      extra.on('error', () => undefined);
      extra.on('close', () => resolve(data === '' ? 'closed without an answer' : data));
    });
    expect(outcome).toBe('closed without an answer');
    for (const s of held) s.destroy();
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.status)
      .toBe(200);
  });
});
