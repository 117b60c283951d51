/**
 * Rule: the Browser page shows what the browser tools are doing as it happens: before the first
 * browser call it says the browser is not started; after an agent navigates it mirrors the page
 * live (frames drawn, rate measured) with URL, title, tabs (active marked) and the last actions;
 * it warns while a modal dialog blocks the page; and an agent's browser_show brings the page
 * forward from anywhere in the app with the agent's reason.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness, textOf } from './support/ui-harness';

// An animated page keeps the screencast sending frames; the confirm page blocks itself with a dialog.
const PAGES: Record<string, string> = {
  '/': `<!doctype html><title>Fixture home</title>
    <body style="font: 20px sans-serif; margin: 0; padding: 2rem;
      background: linear-gradient(135deg, #e0f2fe, #fef3c7)">
    <h1>Fixture home</h1><p>Frames drawn by this page: <strong id="tick">0</strong></p>
    <form><label>Name <input value="Ada"></label> <button type="button">Send</button></form>
    <script>
      let n = 0;
      (function step() {
        document.getElementById('tick').textContent = String(n++);
        requestAnimationFrame(step);
      })();
    </script>`,
  '/confirm':
    '<!doctype html><title>Checkout</title><h1>Checkout</h1><script>setTimeout(() ' +
    `=> confirm('Really pay?'), 300);</script>`,
  '/still': `<!doctype html><title>Still</title><h1>Nothing moves here</h1>`,
};

async function serveFixture(): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const body = PAGES[req.url ?? ''];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('Browser page against the host driving real Chromium', () => {
  let h: UiHarness;
  let fixture: { server: Server; base: string };

  async function agentCall(name: string, args: Record<string, unknown>): Promise<string> {
    const result = await h.mcp.callTool({ name, arguments: args });
    const text = textOf(result);
    if (result.isError) throw new Error(`${name} failed: ${text}`);
    return text;
  }

  beforeAll(async () => {
    fixture = await serveFixture();
    h = await startUiHarness();
  });
  afterAll(async () => {
    await h?.close();
    await new Promise((resolve) => fixture?.server.close(resolve));
  });

  it('says the browser is not started before the first browser call', async () => {
    await h.open('browser');
    await h.page.getByText('Not started: the first browser tool call launches it.').waitFor();
  });

  it('mirrors the page an agent navigated to, with its URL, title, tabs and the action', async () => {
    await agentCall('browser_navigate', { url: `${fixture.base}/` });
    const url = h.page.getByTestId('browser-url');
    await eventually(async () => expect(await url.textContent()).toBe(`${fixture.base}/`), 20_000);
    expect(await h.page.getByTestId('browser-title').textContent()).toBe('Fixture home');
    expect(await h.page.getByTestId('browser-connection').textContent()).toMatch(/^Launched \/\S+chrom\S*, headless$/);
    const tabs = h.page.getByTestId('browser-tabs').locator('li');
    expect(await tabs.count()).toBe(1);
    expect(await tabs.first().getAttribute('aria-current')).toBe('true');
    expect(await tabs.first().textContent()).toContain('active');
    await eventually(
      async () => expect(await h.page.getByTestId('browser-actions').textContent()).toContain('browser_navigate'),
      15_000,
    );
    await eventually(
      async () => {
        const rate = Number(
          /([\d.]+) fps/.exec((await h.page.getByTestId('browser-fps').textContent()) ?? '')?.[1] ?? 0,
        );
        expect(rate).toBeGreaterThan(0);
      },
      20_000,
      250,
    );
  });

  it('reports the frames it shows of a page that does not repaint: a still picture, not 0.0 fps', async () => {
    await agentCall('browser_navigate', { url: `${fixture.base}/still` });
    const status = h.page.getByTestId('browser-fps');
    await eventually(
      async () => expect(await status.textContent()).toMatch(/^Still picture · [1-9]\d* frames? shown/),
      20_000,
      250,
    );
    expect(await status.textContent()).not.toContain('0.0 fps');
    await agentCall('browser_navigate', { url: `${fixture.base}/` });
    await eventually(
      async () => expect(await status.textContent()).toMatch(/^[\d.]+ fps · \d+ frames shown/),
      20_000,
      250,
    );
  });

  it('warns while a dialog blocks the page, and stops once the agent answers it', async () => {
    await agentCall('browser_navigate', { url: `${fixture.base}/confirm` });
    const warning = h.page.getByTestId('browser-dialog');
    await eventually(async () => expect(await warning.textContent()).toContain('Really pay?'), 20_000);
    await agentCall('browser_click', { dialog: 'dismiss' });
    await warning.waitFor({ state: 'detached', timeout: 20_000 });
    await agentCall('browser_navigate', { url: `${fixture.base}/` });
  });

  it('comes forward from another page when the agent calls browser_show, saying why', async () => {
    await h.open('traces');
    await agentCall('browser_show', { reason: 'please review the fixture page' });
    await eventually(async () => expect(await h.page.evaluate(() => window.location.hash)).toBe('#/browser'), 15_000);
    const banner = h.page.getByTestId('browser-show-banner');
    await eventually(async () => expect(await banner.textContent()).toContain('please review the fixture page'));
    await eventually(async () =>
      expect(await h.page.getByTestId('browser-mirror').getAttribute('class')).toContain('attention'),
    );
    await eventually(
      async () =>
        expect(
          Number(/([\d.]+) fps/.exec((await h.page.getByTestId('browser-fps').textContent()) ?? '')?.[1] ?? 0),
        ).toBeGreaterThan(0),
      20_000,
      250,
    );
    await h.shot('browser');
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
