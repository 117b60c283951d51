/**
 * Rule: a tool that keeps a breaker per target shows one row on the Breakers page: its worst state
 * and a count of targets, opened by keyboard (a button whose aria-expanded says whether the
 * targets show) to one row per target, each named by the digest the host keeps and by the origin
 * the host holds in memory for the person, with its state, timeline and probe time. Two dead
 * servers trip two breakers of http_request while a healthy server still answers; a third dead
 * one that failed twice joins the row when the filter asks for breakers that never tripped.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakerKey } from '../../tools/core/pipeline';
import { closedPortUrl } from './support/closed-port';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness, textOf } from './support/ui-harness';
import { unnamedControls } from './support/unnamed-controls';

async function distinctClosedUrls(n: number): Promise<string[]> {
  const urls = new Set<string>();
  while (urls.size < n) urls.add(await closedPortUrl());
  return [...urls];
}

describe('Breakers page, grouped by tool', () => {
  let h: UiHarness;
  let healthy: Server;
  let healthyUrl: string;
  let dead: string[];
  let quietUrl: string;
  const keys = () => dead.map((url) => breakerKey('http_request', new URL(url).origin));
  const call = (url: string) => h.mcp.callTool({ name: 'http_request', arguments: { url, method: 'GET' } });
  const group = () => h.page.getByTestId('breaker-group-http_request');
  const disclosure = () => group().getByRole('button', { name: /targets? of http_request$/ });

  beforeAll(async () => {
    h = await startUiHarness();
    [quietUrl, ...dead] = (await distinctClosedUrls(3)) as [string, string, string];
    healthy = createServer((_req, res) => res.end('fine'));
    await new Promise<void>((r) => healthy.listen(0, '127.0.0.1', r));
    healthyUrl = `http://127.0.0.1:${(healthy.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await h?.close();
    await new Promise((r) => healthy?.close(r));
  });

  it('trips the breakers of two dead servers while a healthy one still answers', async () => {
    for (const url of dead) {
      let refused = '';
      for (let i = 0; i < 8 && !refused; i++) {
        const text = textOf(await call(url));
        if (text.includes('CIRCUIT_OPEN')) refused = text;
      }
      expect(refused).toContain('Calls to its other targets are not paused.');
    }
    for (let i = 0; i < 2; i++) expect(textOf(await call(quietUrl))).toContain('EXECUTION_FAILED');
    const answer = await call(healthyUrl);
    expect(textOf(answer)).not.toContain('CIRCUIT_OPEN');
    expect(answer.isError).toBeFalsy();
  });

  it('shows one row for http_request with its worst state and a count of targets, closed', async () => {
    await h.open('breakers');
    await group().waitFor();
    expect(await h.page.locator('.breaker-card h2 a code').allTextContents()).toEqual(['http_request']);
    await eventually(async () =>
      expect(await group().getByTestId('group-summary').textContent()).toBe('2 targets: 2 OPEN'),
    );
    expect(await group().locator('h2 .badge').textContent()).toBe('OPEN');
    expect(await group().getByTestId('group-probe').textContent()).toMatch(
      /^Next probe admitted in \d+:\d\d \(at \d\d:\d\d:\d\d\)\.$/,
    );
    expect(await disclosure().getAttribute('aria-expanded')).toBe('false');
    for (const key of keys()) expect(await h.page.getByTestId(`breaker-${key}`).isVisible()).toBe(false);
  });

  it('opens to its targets from the keyboard, each with its state, timeline and probe time', async () => {
    await h.page.getByLabel(/Show breakers that never tripped/).focus();
    await h.page.keyboard.press('Tab'); // the tool's link
    await h.page.keyboard.press('Tab'); // the row's disclosure
    expect(await h.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      '2 targets of http_request',
    );
    await h.page.keyboard.press('Enter');
    expect(await disclosure().getAttribute('aria-expanded')).toBe('true');
    for (const key of keys()) {
      const row = h.page.getByTestId(`breaker-${key}`);
      await row.waitFor();
      expect(await row.locator('h3').textContent()).toBe(`target ${key.split('@')[1]}OPEN`);
      await eventually(async () =>
        expect(await row.getByTestId(`timeline-${key}`).getByRole('list').textContent()).toContain('CLOSED → OPEN'),
      );
      expect(await row.getByTestId('cooldown').textContent()).toMatch(
        /^Probe admitted in \d+:\d\d \(at \d\d:\d\d:\d\d/,
      );
      await row.getByRole('button', { name: `Reset the breaker of ${key}` }).waitFor();
    }
    expect(await unnamedControls(h.page)).toEqual([]);
    await h.shot('breakers-grouped');
  });

  it("names each tripped target by its origin next to its digest, and shows no other target's", async () => {
    for (const [i, key] of keys().entries())
      expect(await h.page.getByTestId(`breaker-${key}`).getByTestId('breaker-target-name').textContent()).toBe(
        new URL(dead[i]!).origin,
      );
    const text = await h.page.locator('main').innerText();
    for (const url of [quietUrl, healthyUrl]) expect(text).not.toContain(new URL(url).host);
  });

  it('closes again with Space', async () => {
    await disclosure().focus();
    await h.page.keyboard.press('Space');
    expect(await disclosure().getAttribute('aria-expanded')).toBe('false');
    for (const key of keys()) expect(await h.page.getByTestId(`breaker-${key}`).isVisible()).toBe(false);
  });

  it('counts the target that failed without tripping once the filter asks for it', async () => {
    await h.page.getByLabel(/Show breakers that never tripped/).check();
    await eventually(async () =>
      expect(await group().getByTestId('group-summary').textContent()).toBe('3 targets: 2 OPEN, 1 CLOSED'),
    );
    await disclosure().click();
    const quiet = h.page.getByTestId(`breaker-${breakerKey('http_request', new URL(quietUrl).origin)}`);
    await quiet.waitFor();
    expect(await quiet.textContent()).toContain('2 consecutive failures');
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
