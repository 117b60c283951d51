/**
 * Rule: an MCP session belongs to the client token that opened it. Another token sending its id
 * gets the same 404 as for an id that does not exist, so "approve for this session" stays with the
 * client a person granted it to. Session ids are never written down or shown: the audit, spans,
 * pending approvals, events and logs know a session by its label `<client>#<n>`, which names the
 * client. Sessions are capped per token and in all, with an error saying what to do, and a revoked
 * token is refused at once, its sessions closed.
 *
 * Attack reproduced (issue 12, 4 and 10): client B read client A's session id from the audit log,
 * sent it with the shared token, and used A's session grant for delete_file without a prompt;
 * 2,000 initializes kept their sessions for 30 minutes.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../shared/contract';
import { type TestHost, startTestHost, textOf } from '../host/harness';
import { type PersonSession, openPersonSession } from '../support/person-session';

interface Agent {
  client: Client;
  transport: StreamableHTTPClientTransport;
  sessionId: string;
}

async function connectAs(t: TestHost, token: string, name: string): Promise<Agent> {
  const transport = new StreamableHTTPClientTransport(new URL(t.host.address.mcp), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, sessionId: transport.sessionId ?? '' };
}

/** A client the person allowed the files toolset: these agents call delete_file, which waits for approval. */
async function createToken(person: PersonSession, name: string): Promise<string> {
  const r = await person.rpc('createClientToken', { name, toolsets: ['files'] });
  expect(r.status).toBe(200);
  return (r.body as { token: string }).token;
}

/** A raw tools/call on a given session id with a given token, as a hostile client would send it. */
function callOnSession(t: TestHost, token: string, sessionId: string, path: string) {
  return fetch(t.host.address.mcp, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'delete_file', arguments: { path } },
    }),
  }).then(async (r) => ({ status: r.status, text: await r.text() }));
}

describe('a session used with another client’s token', () => {
  let t: TestHost;
  let person: PersonSession;
  let a: Agent;
  let tokenB: string;
  const events: HostEvent[] = [];

  beforeAll(async () => {
    t = await startTestHost();
    t.host.events.on((e) => events.push(e));
    person = await openPersonSession(t.host.uiLink());
    a = await connectAs(t, await createToken(person, 'client-a'), 'agent-a');
    tokenB = await createToken(person, 'client-b');
    for (const f of ['a1.txt', 'a2.txt', 'b1.txt', 'b2.txt']) writeFileSync(join(t.dataDir, 'workspace', f), f);
  });
  afterAll(async () => {
    await a?.client.close();
    await t?.dispose();
  });

  it('lets the owner use the grant a person gave its session', async () => {
    const first = a.client.callTool({ name: 'delete_file', arguments: { path: 'a1.txt' } });
    await expect.poll(() => t.host.api.pendingApprovals({})).toHaveLength(1);
    const [item] = await t.host.api.pendingApprovals({});
    await t.host.api.decideApproval({ approvalId: item!.approvalId, decision: 'approve_session' });
    expect((await first).isError).toBeFalsy();
    expect((await a.client.callTool({ name: 'delete_file', arguments: { path: 'a2.txt' } })).isError).toBeFalsy();
    expect(existsSync(join(t.dataDir, 'workspace', 'a2.txt'))).toBe(false);
  });

  it('is not found for client B, nor for the data dir’s default token', async () => {
    for (const token of [tokenB, t.host.token]) {
      const r = await callOnSession(t, token, a.sessionId, 'b1.txt');
      expect(r.status).toBe(404);
      expect(r.text).toContain('Session not found; initialize a new session.');
    }
    expect(existsSync(join(t.dataDir, 'workspace', 'b1.txt'))).toBe(true);
  });

  it('is refused to an SDK client of B that resumes A’s session id', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(t.host.address.mcp), {
      sessionId: a.sessionId,
      requestInit: { headers: { authorization: `Bearer ${tokenB}` } },
    });
    await transport.start();
    const refused = transport.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'delete_file', arguments: { path: 'b1.txt' } },
    });
    await expect(refused).rejects.toMatchObject({ code: 404 });
    await expect(refused).rejects.toThrow('Session not found; initialize a new session.');
    await transport.close();
    expect(existsSync(join(t.dataDir, 'workspace', 'b1.txt'))).toBe(true);
  });

  it('gives B’s own session no share of A’s grant: B waits for a person', async () => {
    const b = await connectAs(t, tokenB, 'agent-b');
    const call = b.client.callTool({ name: 'delete_file', arguments: { path: 'b2.txt' } });
    await expect.poll(() => t.host.api.pendingApprovals({})).toHaveLength(1);
    const [item] = await t.host.api.pendingApprovals({});
    expect(item!.sessionId).toMatch(/^client-b#\d+$/);
    await t.host.api.decideApproval({ approvalId: item!.approvalId, decision: 'deny', reason: 'no' });
    expect(textOf(await call)).toContain('no');
    expect(existsSync(join(t.dataDir, 'workspace', 'b2.txt'))).toBe(true);
    await b.client.close();
  });

  it('never writes or shows a session id: audit, spans, approvals, events, database, logs hold labels', async () => {
    const audit = (await person.rpc('auditLog', {})).body as Array<{ sessionId: string }>;
    expect(audit.map((e) => e.sessionId)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^client-a#\d+$/), expect.stringMatching(/^client-b#\d+$/)]),
    );
    const spans = (await person.rpc('listSpans', {})).body as Array<{ sessionId: string }>;
    expect(spans.filter((s) => s.sessionId.startsWith('client-a#')).length).toBeGreaterThanOrEqual(2);
    const exported = JSON.stringify((await person.rpc('exportSpans', {})).body);
    const seen = [
      JSON.stringify(audit),
      JSON.stringify(spans),
      exported,
      JSON.stringify(events),
      JSON.stringify((await person.rpc('pendingApprovals', {})).body),
    ];
    t.host.db.exec('PRAGMA wal_checkpoint(FULL)');
    for (const f of readdirSync(t.dataDir).filter((f) => f.startsWith('toolgate.db')))
      seen.push(readFileSync(join(t.dataDir, f)).toString('latin1'));
    for (const f of readdirSync(join(t.dataDir, 'logs'))) seen.push(readFileSync(join(t.dataDir, 'logs', f), 'utf8'));
    expect(a.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    for (const text of seen) expect(text).not.toContain(a.sessionId);
    expect(JSON.stringify(events)).toContain('client-a#');
  });
});

describe('session caps', () => {
  let t: TestHost;
  let person: PersonSession;
  const open: Agent[] = [];
  beforeAll(async () => {
    t = await startTestHost({ mcpMaxSessionsPerClient: 3, mcpMaxSessions: 5 });
    person = await openPersonSession(t.host.uiLink());
  });
  afterAll(async () => {
    await Promise.all(open.map((s) => s.client.close()));
    await t?.dispose();
  });

  it('refuses one session too many for a client, saying what to do', async () => {
    const token = await createToken(person, 'looper');
    for (let i = 0; i < 3; i++) open.push(await connectAs(t, token, `looper-${i}`));
    const error = await connectAs(t, token, 'looper-4').then(
      () => undefined,
      (e: unknown) => String(e),
    );
    expect(error).toContain("Too many MCP sessions: client 'looper' has 3 open, its limit is 3.");
    expect(error).toContain('DELETE /mcp');
  });

  it('refuses one session too many for the host, and admits one again after a session ends', async () => {
    open.push(await connectAs(t, t.host.token, 'other-1'));
    open.push(await connectAs(t, t.host.token, 'other-2'));
    const error = await connectAs(t, t.host.token, 'other-3').then(
      () => undefined,
      (e: unknown) => String(e),
    );
    expect(error).toContain('Too many MCP sessions: this host has 5 open, its limit is 5.');
    const ended = open.pop()!;
    await ended.transport.terminateSession();
    await ended.client.close();
    const again = await connectAs(t, t.host.token, 'other-3');
    open.push(again);
    expect((await again.client.listTools()).tools.length).toBeGreaterThan(0);
  });
});

describe('a revoked client token', () => {
  let t: TestHost;
  let person: PersonSession;
  beforeAll(async () => {
    t = await startTestHost();
    person = await openPersonSession(t.host.uiLink());
  });
  afterAll(async () => t?.dispose());

  it('is listed with its name and open sessions, then refused at once with 401 and its sessions closed', async () => {
    const token = await createToken(person, 'laptop');
    const agent = await connectAs(t, token, 'laptop-agent');
    const listed = (await person.rpc('clientTokens')).body as Array<{ id: string; name: string; openSessions: number }>;
    const laptop = listed.find((c) => c.name === 'laptop')!;
    expect(laptop.openSessions).toBe(1);
    expect(listed.map((c) => c.name)).toEqual(['default', 'laptop']);
    expect(JSON.stringify(listed)).not.toContain(token);

    expect((await person.rpc('revokeClientToken', { id: laptop.id })).body).toMatchObject({ ok: true });
    await expect(agent.client.listTools()).rejects.toThrow(/401|revoked/);
    const fresh = await fetch(t.host.address.mcp, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(fresh.status).toBe(401);
    expect(await fresh.text()).toContain('Invalid or revoked bearer token.');
    const after = (await person.rpc('clientTokens')).body as Array<{ name: string }>;
    expect(after.map((c) => c.name)).toEqual(['default']);
    await agent.client.close();
  });

  it('cannot be the default token, which the stdio bridge reads', async () => {
    expect((await person.rpc('revokeClientToken', { id: 'default' })).body).toMatchObject({ ok: false });
    expect((await person.rpc('createClientToken', { name: 'default' })).status).toBe(400);
  });
});
