/**
 * Rule: settings are validated key by key (a bad value names its field and stores nothing),
 * survive a restart, return to the default when cleared, and those that need no restart apply at
 * once (web_search starts using a newly set provider on the next call).
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost } from '../../tools/host/host';
import { dispatchRpc } from '../../tools/host/http/rpc-dispatch';
import { freePort, killAdbServer } from '../support/private-adb';
import { type TestHost, startTestHost } from './harness';

let t: TestHost;
let search: Server;
let searchUrl: string;

beforeAll(async () => {
  t = await startTestHost();
  search = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q');
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ results: [{ title: `About ${q}`, url: 'https://example.org/a', snippet: 'a result' }] }));
  });
  await new Promise<void>((r) => search.listen(0, '127.0.0.1', () => r()));
  searchUrl = `http://127.0.0.1:${(search.address() as AddressInfo).port}/search`;
});
afterAll(async () => {
  search?.close();
  await t?.dispose();
});

describe('settings', () => {
  it('refuses a bad value, naming the field, and stores nothing', async () => {
    const r = await dispatchRpc(t.host.api, 'updateSettings', {
      changes: { adbPort: 70000, webSearchEndpoint: searchUrl },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ fields: ['adbPort'] });
    expect((await t.host.api.getSettings({})).settings).toEqual({});
  });

  it('refuses a Playwright server address that is not ws:// or wss://, saying so', async () => {
    const r = await dispatchRpc(t.host.api, 'updateSettings', {
      changes: { browserPlaywrightServer: 'http://lab-box:3000/' },
    });
    expect(r).toMatchObject({ status: 400, body: { fields: ['browserPlaywrightServer'] } });
    expect(JSON.stringify(r.body)).toContain('ws://');
    const ok = await t.host.api.updateSettings({ changes: { browserPlaywrightServer: 'ws://lab-box:3000/' } });
    expect(ok.restartRequired).toContain('browserPlaywrightServer');
    await t.host.api.updateSettings({ changes: { browserPlaywrightServer: null } });
  });

  it('refuses an unknown key', async () => {
    const r = await dispatchRpc(t.host.api, 'updateSettings', { changes: { colour: 'blue' } });
    expect(r).toMatchObject({ status: 400, body: { fields: ['colour'] } });
  });

  it('applies the web search provider at once, without a restart', async () => {
    const before = await t.host.api.callTool({ toolId: 'web_search', args: { query: 'toolgate' } });
    expect(before.error?.code).toBe('UNSUPPORTED');
    await t.host.api.updateSettings({ changes: { webSearchEndpoint: searchUrl } });
    const after = await t.host.api.callTool({ toolId: 'web_search', args: { query: 'toolgate' } });
    expect(after.ok).toBe(true);
    expect(after.rendered).toContain('About toolgate');
  });

  it('returns a cleared key to its default', async () => {
    await t.host.api.updateSettings({ changes: { approvalTimeoutSeconds: 30 } });
    expect((await t.host.api.getSettings({})).settings.approvalTimeoutSeconds).toBe(30);
    await t.host.api.updateSettings({ changes: { approvalTimeoutSeconds: null } });
    expect((await t.host.api.getSettings({})).settings.approvalTimeoutSeconds).toBeUndefined();
  });

  it('survives a restart and says which keys need one', async () => {
    const adbPort = await freePort();
    await t.host.api.updateSettings({ changes: { adbPort } });
    await t.host.close();
    const again = await startHost({ dataDir: t.dataDir, port: 0 });
    const s = await again.api.getSettings({});
    expect(s.settings).toMatchObject({ adbPort, webSearchEndpoint: searchUrl });
    expect(s.restartRequired).toContain('adbPort');
    await again.close();
    // The restarted host used the saved port for its adb server; stop that one too.
    await killAdbServer(adbPort);
  });
});
