/**
 * Rule: the host puts the browser family behind the pipeline and shows it to the UI: an agent's
 * browser_navigate over MCP opens the page, the Browser view lists its url and tabs and the last
 * actions, the mirror streams frames of it, and browser_show asks the UI to bring it forward.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../shared/contract';
import { type TestHost, connectClient, startTestHost, textOf } from './harness';
import { connectionForView } from '../../tools/host/browser-surface';

let t: TestHost;
let client: Client;
let site: Server;
let url: string;
const events: HostEvent[] = [];

beforeAll(async () => {
  site = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Shop</title><h1>Basket</h1><button>Pay</button>'),
  );
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/basket`;
  t = await startTestHost();
  t.host.events.on((e) => events.push(e));
  client = await connectClient(t.host, 'web-agent');
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
  site?.close();
});

describe('the browser in the host', () => {
  it('has not started before any agent call, and says so', async () => {
    expect(await t.host.api.browser({})).toMatchObject({ started: false, tabs: [] });
    expect((await t.host.api.browserScreen({ on: true })).message).toMatch(/first browser tool call/);
  });

  it('opens the page an agent navigates to, and mirrors it', async () => {
    const r = await client.callTool({ name: 'browser_navigate', arguments: { url } });
    expect(r.isError).toBeFalsy();
    const view = await t.host.api.browser({});
    expect(view).toMatchObject({
      started: true,
      url,
      title: 'Shop',
      connection: { mode: 'launch', target: expect.stringMatching(/chrom/), headless: true },
    });
    expect(view.tabs).toEqual([expect.objectContaining({ url, active: true })]);
    expect(view.recentActions.map((a) => a.tool)).toContain('browser_navigate');
    await client.callTool({ name: 'browser_scroll', arguments: { direction: 'down' } });
    // The mirror may paint the new tab's about:blank before the navigation commits; a frame of the page follows.
    const pageFrame = () => events.find((e) => e.type === 'browser-frame' && e.url === url);
    await expect.poll(pageFrame, { timeout: 15_000 }).toBeDefined();
    expect(pageFrame()).toMatchObject({ url, frame: { mimeType: 'image/jpeg' } });
    expect((await t.host.api.info({})).browser).toMatchObject({ started: true, tabs: 1 });
  });

  it('asks the UI to show the page on browser_show', async () => {
    const r = await client.callTool({ name: 'browser_show', arguments: { reason: 'Please check the basket total' } });
    expect(textOf(r)).not.toMatch(/^Error/);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'browser-show', url, reason: 'Please check the basket total' }),
    );
  });

  it('stops the mirror when asked', async () => {
    expect(await t.host.api.browserScreen({ on: false })).toMatchObject({ ok: true });
  });
});

describe('the browser connection shown on the page', () => {
  it("never shows a remote endpoint's credential", () => {
    const shown = connectionForView({
      mode: 'cdp',
      target: 'wss://qa:hunter2@browsers.example:443/devtools?token=s3cr3t-abc&region=eu',
    });
    expect(shown.target).not.toMatch(/hunter2|s3cr3t-abc/);
    expect(shown.target).toContain('browsers.example');
    expect(shown.target).toContain('region=eu');
    expect(connectionForView({ mode: 'launch', target: '/usr/bin/chromium', headless: true })).toEqual({
      mode: 'launch',
      target: '/usr/bin/chromium',
      headless: true,
    });
  });
});
