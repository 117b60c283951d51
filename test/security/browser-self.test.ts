/**
 * Issue 12, attack 1: an agent left `delete_file` waiting, opened Toolgate's own UI in the tools'
 * browser, took a snapshot (`button "Approve once"`) and clicked it. Rule: the browser the tools
 * drive never reaches Toolgate itself: not by browser_navigate on any spelling of this machine, not
 * through a page's frames, images, fetches, WebSockets, workers or redirects, whatever
 * networkBlockPrivateAddresses says; and so it never holds the UI's cookie. Real host, real MCP
 * client, real Chromium; the host's server counts who connected to it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type BrowserServer, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINUX_ARGS } from '../../tools/browser';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { CHROMIUM, requireChromium } from '../support/requirements';
import { ensureRendererBuild } from '../ui/support/renderer-build';
import { type HostTraffic, watchHostTraffic } from './host-traffic';
import { ALL_OUTCOMES, type HostileSite, REACHED, ROUTED_OUTCOMES, outcomes, startHostileSite } from './hostile-site';

let t: TestHost;
let client: Client;
let site: HostileSite;
let traffic: HostTraffic;

const REFUSED = /PERMISSION_DENIED: Refused: \S+ is Toolgate itself; tools may not reach it\./;

function hostPort(): number {
  return t.host.address.port;
}

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return { error: result.isError === true, text: textOf(result) };
}

beforeAll(async () => {
  requireChromium();
  const rendererDir = await ensureRendererBuild();
  site = await startHostileSite(hostPort);
  t = await startTestHost({ rendererDir, approvalTimeoutMs: 120_000 });
  traffic = watchHostTraffic(hostPort());
  client = await connectClient(t.host, 'hostile-agent');
}, 240_000);
afterAll(async () => {
  traffic?.dispose();
  await client?.close();
  await t?.dispose();
  await site?.close();
});

describe('the attack of issue 12 (pending delete_file, open the UI, snapshot, click "Approve once")', () => {
  it('ends with the file intact, the call still waiting for a person, and a refusal naming Toolgate', async () => {
    const victim = join(t.dataDir, 'workspace', 'victim.txt');
    writeFileSync(victim, 'keep me');
    const deletion = client.callTool({ name: 'delete_file', arguments: { path: 'victim.txt' } });
    await expect
      .poll(() => t.host.approvals.pending().map((p) => p.toolId), { timeout: 10_000 })
      .toEqual(['delete_file']);
    // The UI is there, for a person's browser.
    const ui = await fetch(t.host.address.ui);
    expect([ui.status, (await ui.text()).includes('<script')]).toEqual([200, true]);

    const opened = await call('browser_navigate', { url: `${t.host.address.ui}#/approvals` });
    expect(opened.error).toBe(true);
    expect(opened.text).toMatch(REFUSED);
    const snapshot = await call('browser_snapshot');
    expect(snapshot.text).toMatch(/^Page: about:blank/);
    expect(snapshot.text).not.toMatch(/Approve once|Toolgate/);
    // Whatever the agent clicks now, it is not on the UI.
    const clicked = await call('browser_click', { ref: 'e1' });
    expect(clicked.text).not.toMatch(/Toolgate|approval/i);

    expect(t.host.approvals.pending().map((p) => p.toolId)).toEqual(['delete_file']);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    const [waiting] = t.host.approvals.pending();
    t.host.approvals.answer(waiting?.approvalId ?? '', { decision: 'deny', reason: 'test over', decider: 'person' });
    expect((await deletion).isError).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    const decisions = (await t.host.api.auditLog({ limit: 50 })).filter((a) => a.toolId === 'delete_file');
    expect(decisions.map((a) => a.decision)).toEqual(['deny']);
    expect([traffic.foreignConnections(), traffic.foreignRequests()]).toEqual([0, 0]);
  });
});

describe('browser_navigate to the host', () => {
  it('is refused on every spelling of this machine, with the public-web-only setting off and on', async () => {
    const port = hostPort();
    const spellings = [
      '127.0.0.1',
      '127.1',
      '0x7f.1',
      '2130706433',
      '127.0.0.2',
      '[::1]',
      '[::ffff:127.0.0.1]',
      'localhost',
      'localhost.',
      'toolgate.localhost',
      '0.0.0.0',
      '[::]',
    ];
    for (const blocked of [false, true]) {
      await t.host.api.updateSettings({ changes: { networkBlockPrivateAddresses: blocked } });
      for (const host of spellings) {
        const opened = await call('browser_navigate', { url: `http://${host}:${port}/#/approvals` });
        expect([host, opened.error, opened.text]).toEqual([host, true, expect.stringMatching(REFUSED)]);
      }
    }
    await t.host.api.updateSettings({ changes: { networkBlockPrivateAddresses: false } });
    expect([traffic.foreignConnections(), traffic.foreignRequests()]).toEqual([0, 0]);
  });

  it('is refused when a page redirects there, and the browser is not left on the host', async () => {
    const opened = await call('browser_navigate', { url: `${site.url}/to-host` });
    expect(opened.error).toBe(true);
    expect(opened.text).toMatch(REFUSED);
    expect((await call('browser_snapshot')).text).not.toMatch(/Approve once|Toolgate/);
    expect([traffic.foreignConnections(), traffic.foreignRequests()]).toEqual([0, 0]);
  });
});

describe('a page on an allowed local server that embeds the host', () => {
  it('gets nothing: no frame, image, fetch, WebSocket, worker or redirect reaches it; no service worker', async () => {
    const opened = await call('browser_navigate', { url: `${site.url}/embeds` });
    expect(opened.error).toBe(false);
    expect(opened.text).toMatch(/Toolgate blocked what the page tried to load: Refused: \S+ is Toolgate itself/);
    const snapshot = await outcomes(async () => (await call('browser_snapshot')).text, ALL_OUTCOMES);
    for (const line of ALL_OUTCOMES) expect(snapshot).toContain(line);
    expect(snapshot).not.toMatch(REACHED);
    expect(site.requested).not.toContain('/sw.js');
    expect([traffic.foreignConnections(), traffic.foreignRequests()]).toEqual([0, 0]);
  });
});

describe("the UI's cookie", () => {
  it('is never in the browser the tools drive', async () => {
    // Cookies ignore the port: had the browser ever loaded the UI, this page on 127.0.0.1 would be sent it.
    const opened = await call('browser_navigate', { url: `${site.url}/echo-cookie` });
    expect(opened.error).toBe(false);
    expect(site.cookiesSeen.at(-1)).toBeUndefined();
    expect((await call('browser_snapshot')).text).toContain('cookie header: (none)');
  });
});

describe('a browser Toolgate did not launch (a Playwright browser server)', () => {
  let server: BrowserServer;
  let borrowed: TestHost;
  let agent: Client;
  let watch: HostTraffic;
  const port = () => borrowed.host.address.port;
  let hostile: HostileSite;

  beforeAll(async () => {
    server = await chromium.launchServer({ executablePath: CHROMIUM, args: LINUX_ARGS, headless: true });
    const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-borrowed-'));
    const first = await startHostileHost(dataDir);
    await first.host.api.updateSettings({ changes: { browserPlaywrightServer: server.wsEndpoint() } });
    await first.host.close();
    borrowed = await startHostileHost(dataDir);
    hostile = await startHostileSite(port);
    watch = watchHostTraffic(port());
    agent = await connectClient(borrowed.host, 'hostile-agent');
  }, 120_000);
  afterAll(async () => {
    watch?.dispose();
    await agent?.close();
    await borrowed?.dispose();
    await hostile?.close();
    await server?.close();
  });

  async function agentCall(name: string, args: Record<string, unknown> = {}) {
    const result = await agent.callTool({ name, arguments: args });
    return { error: result.isError === true, text: textOf(result) };
  }

  it('is driven through its own context, which routes every request through the same rules', async () => {
    const opened = await agentCall('browser_navigate', { url: `http://127.1:${port()}/#/approvals` });
    expect(opened.text).toMatch(REFUSED);
    expect((await borrowed.host.api.browser({})).connection).toMatchObject({ mode: 'server' });
    const embeds = await agentCall('browser_navigate', { url: `${hostile.url}/embeds?all=false` });
    expect(embeds.text).toMatch(/Toolgate blocked what the page tried to load: Refused: \S+ is Toolgate itself/);
    const snapshot = await outcomes(async () => (await agentCall('browser_snapshot')).text, ROUTED_OUTCOMES);
    for (const line of ROUTED_OUTCOMES) expect(snapshot).toContain(line);
    expect(snapshot).not.toMatch(REACHED);
    expect(hostile.requested).not.toContain('/sw.js');
    // Such a browser may still open an idle connection ahead of time (a preconnect, which no route
    // sees); not one byte of a request reaches the host.
    expect(watch.foreignRequests()).toBe(0);
  });
});

function startHostileHost(dataDir: string): Promise<TestHost> {
  return startTestHost({ dataDir, approvalTimeoutMs: 120_000 });
}
