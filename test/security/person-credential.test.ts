/**
 * Rule: only a person decides. Agents hold MCP tokens, which call tools at /mcp and nothing else;
 * every method of the host ↔ UI contract and the event socket need the person's UI session, opened
 * from a one-time link, and every call also carries that session's CSRF token and the UI's Origin.
 * Loading the UI hands out no credential, so a browser that merely opens the address (the tools'
 * browser, steered by an agent) sees how to open a session and nothing to click.
 *
 * Attack reproduced (issue 12, 1 and 2): a waiting destructive call approved with the bearer token
 * over /api/rpc/decideApproval, settings changed with it, and the UI's cookie handed to any browser
 * that loaded `/`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { METHOD_NAMES } from '../../shared/contract';
import { CSRF_HEADER, UI_SESSION_COOKIE } from '../../shared/ui-session';
import { signLinkSecret } from '../../tools/host/auth/ui-link';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { runCli } from '../host/process-harness';
import { type PersonSession, openPersonSession } from '../support/person-session';
import { ensureRendererBuild } from '../ui/support/renderer-build';
import { launchChromium } from '../ui/support/ui-harness';

const BEARER_REFUSED = 'An MCP token calls tools at /mcp and nothing else';

let t: TestHost;
let agent: Client;
let person: PersonSession;
let origin: string;

beforeAll(async () => {
  t = await startTestHost({ rendererDir: await ensureRendererBuild() });
  agent = await connectClient(t.host, 'hostile-agent');
  person = await openPersonSession(t.host.uiLink());
  origin = person.origin;
});
afterAll(async () => {
  await agent?.close();
  await t?.dispose();
});

function post(path: string, headers: Record<string, string>, body: unknown = {}) {
  return fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, text: await r.text() }));
}

async function pendingDelete(path: string): Promise<{ call: Promise<unknown>; approvalId: string }> {
  writeFileSync(join(t.dataDir, 'workspace', path), 'precious');
  const call = agent.callTool({ name: 'delete_file', arguments: { path } }, undefined, { timeout: 60_000 });
  await expect.poll(() => t.host.api.pendingApprovals({}), { timeout: 10_000 }).toHaveLength(1);
  const [item] = await t.host.api.pendingApprovals({});
  return { call, approvalId: item!.approvalId };
}

describe('an MCP token on the UI API', () => {
  it('is refused on every contract method with 403 and the reason', async () => {
    const client = (await person.rpc('createClientToken', { name: 'probe' })).body as { token: string };
    for (const token of [t.host.token, client.token]) {
      for (const method of METHOD_NAMES) {
        const r = await post(`/api/rpc/${method}`, { authorization: `Bearer ${token}` });
        expect(r.status, method).toBe(403);
        expect(r.text, method).toContain(BEARER_REFUSED);
      }
    }
  });

  it('is refused even next to a valid session cookie and CSRF token', async () => {
    const r = await person.rpc('pendingApprovals', {}, { authorization: `Bearer ${t.host.token}` });
    expect(r.status).toBe(403);
    expect(JSON.stringify(r.body)).toContain(BEARER_REFUSED);
  });

  it('cannot approve a waiting delete_file, nor change a setting', async () => {
    const { call, approvalId } = await pendingDelete('victim.txt');
    const auth = { authorization: `Bearer ${t.host.token}` };
    expect((await post('/api/rpc/pendingApprovals', auth)).status).toBe(403);
    expect((await post('/api/rpc/decideApproval', auth, { approvalId, decision: 'approve_once' })).status).toBe(403);
    const settings = await post('/api/rpc/updateSettings', auth, { changes: { workspaceRoot: '/' } });
    expect(settings.status).toBe(403);
    expect((await t.host.api.getSettings({})).settings.workspaceRoot).toBeUndefined();
    expect(await t.host.api.pendingApprovals({})).toHaveLength(1);
    expect(existsSync(join(t.dataDir, 'workspace', 'victim.txt'))).toBe(true);

    const denied = await person.rpc('decideApproval', { approvalId, decision: 'deny', reason: 'not mine' });
    expect(denied).toMatchObject({ status: 200, body: { ok: true } });
    expect(textOf(await call)).toContain('not mine');
    expect(existsSync(join(t.dataDir, 'workspace', 'victim.txt'))).toBe(true);
    const [audit] = (await person.rpc('auditLog', {})).body as Array<{ decision: string; decider: string }>;
    expect(audit).toMatchObject({ decision: 'deny', decider: 'ui' });
  });
});

describe('a call of the UI API', () => {
  it('without the session cookie is a 401 saying how to open a session', async () => {
    const r = await post('/api/rpc/info', { origin, [CSRF_HEADER]: person.csrf });
    expect(r.status).toBe(401);
    expect(r.text).toContain('toolgate ui-link --data-dir DIR');
  });

  it('deciding an approval without the CSRF token, with a wrong one, or without the UI Origin is a 403', async () => {
    const { call, approvalId } = await pendingDelete('victim2.txt');
    const decide = { approvalId, decision: 'approve_once' };
    const attempts: Array<Record<string, string>> = [
      { cookie: person.cookie, origin },
      { cookie: person.cookie, origin, [CSRF_HEADER]: `${person.csrf.slice(0, -2)}xx` },
      { cookie: person.cookie, [CSRF_HEADER]: person.csrf },
      { cookie: person.cookie, origin: 'http://evil.example', [CSRF_HEADER]: person.csrf },
    ];
    for (const headers of attempts) {
      const r = await post('/api/rpc/decideApproval', headers, decide);
      expect(r.status, JSON.stringify(Object.keys(headers))).toBe(403);
      expect(r.text).toMatch(/CSRF token|Origin/);
    }
    expect(await t.host.api.pendingApprovals({})).toHaveLength(1);
    expect(existsSync(join(t.dataDir, 'workspace', 'victim2.txt'))).toBe(true);

    expect((await person.rpc('decideApproval', decide)).body).toMatchObject({ ok: true });
    expect((await call) as { isError?: boolean }).not.toMatchObject({ isError: true });
    expect(existsSync(join(t.dataDir, 'workspace', 'victim2.txt'))).toBe(false);
  });
});

describe('the one-time link', () => {
  it('opens a session once: the second use is refused', async () => {
    const link = t.host.uiLink();
    const first = await fetch(link, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    const cookies = first.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith(`${UI_SESSION_COOKIE}=`))).toMatch(/HttpOnly/);
    expect(cookies.every((c) => /SameSite=Strict/.test(c))).toBe(true);
    const second = await fetch(link, { redirect: 'manual' });
    expect(second.status).toBe(403);
    expect(await second.text()).toContain('the link was already used');
    expect(second.headers.getSetCookie()).toEqual([]);
  });

  it('is refused when expired or altered', async () => {
    const { uiLinkKey } = JSON.parse(readFileSync(join(t.dataDir, 'host.json'), 'utf8')) as { uiLinkKey: string };
    const expired = await fetch(`${origin}/session/${signLinkSecret(uiLinkKey, Date.now() - 3_600_000)}`, {
      redirect: 'manual',
    });
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('the link has expired');
    const link = t.host.uiLink();
    const altered = await fetch(`${link.slice(0, -3)}AAA`, { redirect: 'manual' });
    expect(altered.status).toBe(403);
    expect(await altered.text()).toContain('not a link of this host run');
  });

  it('is not used up by a HEAD request', async () => {
    const link = t.host.uiLink();
    expect((await fetch(link, { method: 'HEAD', redirect: 'manual' })).status).toBe(405);
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(303);
  });

  it('can be made afresh by `toolgate ui-link` for the same data dir', async () => {
    const child = runCli(['ui-link', '--data-dir', t.dataDir]);
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    expect(await new Promise((r) => child.on('exit', r))).toBe(0);
    const link = out.trim();
    expect(link).toMatch(new RegExp(`^${origin}/session/`));
    const fresh = await openPersonSession(link);
    expect((await fresh.rpc('info')).status).toBe(200);
  });
});

describe('the UI page', () => {
  it('sets no cookie when loaded', async () => {
    for (const path of ['/', '/index.html', '/approvals']) {
      const r = await fetch(`${origin}${path}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.getSetCookie(), path).toEqual([]);
    }
  });

  it('loaded in a browser without a session shows how to open one, and no approval to click', async () => {
    const { call, approvalId } = await pendingDelete('victim3.txt');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}/#/approvals`);
      await page.getByRole('heading', { name: 'Open Toolgate from its link' }).waitFor();
      expect(await page.getByRole('button', { name: 'Approve once' }).count()).toBe(0);
      const text = await page.locator('body').innerText();
      expect(text).toContain('toolgate ui-link --data-dir DIR');
      expect(text).not.toContain(t.host.token);
      expect((await page.context().cookies()).map((c) => c.name)).toEqual([]);
    } finally {
      await browser.close();
    }
    expect(await t.host.api.pendingApprovals({})).toHaveLength(1);
    await t.host.api.decideApproval({ approvalId, decision: 'deny' });
    await call;
  });
});

describe('a person’s page', () => {
  it('works from the link, and shows how to open a session again once its session is gone', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(t.host.uiLink());
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      await page.context().clearCookies();
      await page.goto(`${origin}/#/approvals`);
      await page.getByRole('heading', { name: 'Open Toolgate from its link' }).waitFor();
    } finally {
      await browser.close();
    }
  });
});

describe('the event socket', () => {
  const open = (headers: Record<string, string>, query = '') =>
    new Promise<{ outcome: string; ws: WebSocket }>((resolve) => {
      const ws = new WebSocket(`${origin.replace('http', 'ws')}/api/events${query}`, { headers });
      ws.on('open', () => resolve({ outcome: 'open', ws }));
      ws.on('unexpected-response', (_req, res) => resolve({ outcome: String(res.statusCode), ws }));
      ws.on('error', (e) => resolve({ outcome: e.message, ws }));
    });

  it('refuses a browser without the session, the MCP token, and another Origin', async () => {
    const refusals = [
      await open({ origin }),
      await open({ origin, authorization: `Bearer ${t.host.token}` }),
      await open({ origin }, `?token=${t.host.token}`),
      await open({ origin: 'http://evil.example', cookie: person.cookie }),
      await open({ cookie: person.cookie }),
    ];
    for (const r of refusals) r.ws.terminate();
    expect(refusals.map((r) => r.outcome)).toEqual(['401', '403', '403', '403', '403']);
  });

  it('streams events to the person’s session', async () => {
    const { outcome, ws } = await open({ origin, cookie: person.cookie });
    expect(outcome).toBe('open');
    const event = new Promise<string>((resolve) =>
      ws.on('message', (m) => String(m).includes('"approval-pending"') && resolve(String(m))),
    );
    const { call, approvalId } = await pendingDelete('victim4.txt');
    expect(JSON.parse(await event)).toMatchObject({ type: 'approval-pending' });
    ws.terminate();
    await t.host.api.decideApproval({ approvalId, decision: 'deny' });
    await call;
  });
});
