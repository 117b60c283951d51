/**
 * Rule guarded: the browser session is observable — telemetry for the environment gate with the
 * time each value changed, tabs that follow popups and browser_show, a screencast that follows the
 * active tab, recent actions, a filterable network log and a debug dump written into the workspace.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScreencastFrame } from '../../tools/browser';
import { renderResult } from '../../tools/core/result';
import { type Harness, browserPipeline, errorOf, refOf, startHarness } from './harness';

let h: Harness;
let clock = 1_000_000;

beforeAll(async () => {
  h = await startHarness({ now: () => clock });
});
afterAll(async () => {
  await h?.close();
});

describe('telemetry', () => {
  it('reports nothing started before the first call, stamped with the injected clock', () => {
    expect(h.manager.telemetry()).toMatchObject({
      started: false,
      pageOpen: false,
      dialogOpen: false,
      url: undefined,
      observedAt: 1_000_000,
    });
  });

  it('records when the browser started, the page opened and the URL changed', async () => {
    clock = 2_000_000;
    await h.text('browser_navigate', { url: `${h.base}/form.html` });
    clock = 3_000_000;
    const t = h.manager.telemetry();
    expect(t).toMatchObject({
      started: true,
      pageOpen: true,
      dialogOpen: false,
      url: `${h.base}/form.html`,
      observedAt: 3_000_000,
    });
    expect(t.changedAt).toMatchObject({
      started: 2_000_000,
      pageOpen: 2_000_000,
      url: 2_000_000,
      dialogOpen: 1_000_000,
    });
  });
});

describe('tabs and browser_show', () => {
  it('refuses a tab number that is not open', async () => {
    const err = errorOf(await h.call('browser_show', { tab: 9 }));
    expect(err.code).toBe('NOT_FOUND');
    expect(err.message).toMatch(/1 tab is open/);
  });

  it('makes a tab opened by a click the active one and says so', async () => {
    await h.text('browser_navigate', { url: `${h.base}/popup.html` });
    const snap = await h.text('browser_snapshot');
    expect(await h.text('browser_click', { ref: refOf(snap, /link "Open the form in a new tab"/) })).toMatch(
      /new tab opened and is now active/,
    );
    const tabs = await h.manager.tabs();
    expect(tabs.map((t) => [t.title, t.active])).toEqual([
      ['Opener', false],
      ['Sign up', true],
    ]);
    expect(h.manager.tabsNow()).toEqual(tabs);
    expect(await h.text('browser_snapshot')).toMatch(/^Page: "Sign up" .*\[tab 2 of 2\]/);
  });

  it('switches tabs with browser_show and tells the host to bring the view forward', async () => {
    clock = 4_000_000;
    expect(await h.text('browser_show', { tab: 1, reason: 'check the opener' })).toMatch(/Showing tab 1 \("Opener"/);
    expect(h.shown.at(-1)).toEqual({
      url: `${h.base}/popup.html`,
      title: 'Opener',
      tabIndex: 0,
      at: 4_000_000,
      reason: 'check the opener',
    });
    expect(await h.text('browser_snapshot')).toMatch(/^Page: "Opener"/);
  });

  it('says nothing was shown when the host gave no viewer', async () => {
    const result = await browserPipeline(h.manager, h.workspace).call('browser_show');
    expect(renderResult(result)).toMatch(/No viewer is attached/);
  });

  it('moves to the remaining tab when the active one closes', async () => {
    await h.manager.activePage()?.close();
    expect(h.manager.tabSummary()).toEqual({ count: 1, activeIndex: 0 });
    expect(await h.text('browser_snapshot')).toMatch(/^Page: "Sign up"/);
  });

  it('keeps the recent actions for the mirror view, newest last', () => {
    const recent = h.manager.recentActions(3);
    expect(recent.map((a) => [a.tool, a.ok])).toEqual([
      ['browser_snapshot', true],
      ['browser_show', true],
      ['browser_snapshot', true],
    ]);
    expect(
      h.manager
        .recentActions(50)
        .some((a) => a.tool === 'browser_click' && /link "Open the form in a new tab"/.test(a.target)),
    ).toBe(true);
  });
});

describe('screencast', () => {
  it('streams JPEG frames of the active tab and follows a switch to another tab', async () => {
    await h.text('browser_navigate', { url: `${h.base}/animated.html` });
    const frames: ScreencastFrame[] = [];
    let wanted = (f: ScreencastFrame[]) => f.length >= 3;
    let notify = () => {};
    const enough = () => new Promise<void>((resolve) => (notify = () => wanted(frames) && resolve()));
    let waiting = enough();
    const cast = await h.manager.startScreencast((frame) => {
      frames.push(frame);
      notify();
    });
    await waiting;
    const first = frames[0];
    expect(first?.url).toBe(`${h.base}/animated.html`);
    expect(first && Buffer.from(first.data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(first?.width).toBeGreaterThan(0);
    expect(first?.height).toBeGreaterThan(0);

    wanted = (f) => f.some((x) => x.url.endsWith('/form.html'));
    waiting = enough();
    // A new tab becomes the active one; the cast must move to it.
    await h.manager.activePage()?.context().newPage();
    await h.text('browser_navigate', { url: `${h.base}/form.html` });
    await waiting;
    cast.dispose();
    const count = frames.length;
    await h.text('browser_show', { tab: 2 });
    await h.text('browser_snapshot');
    expect(frames.length).toBe(count);
  });
});

describe('network log and debug dump', () => {
  beforeAll(async () => {
    await h.text('browser_navigate', { url: `${h.base}/console.html` });
    await h.text('browser_network_log', { urlContains: '/api/missing' });
    for (let i = 0; i < 50; i++) {
      const r = await h.call('browser_network_log', { urlContains: '/api/missing', status: 404 });
      if (r.ok && (r.structured as { requests: unknown[] }).requests.length > 0) break;
      await h.text('browser_snapshot');
    }
  });

  it('says so when no request matches', async () => {
    expect(await h.text('browser_network_log', { urlContains: 'nothing-like-this' })).toBe(
      'No matching requests recorded.',
    );
  });

  it('filters by status class, resource type and URL text', async () => {
    const errors = await h.text('browser_network_log', { status: '4xx', urlContains: h.base });
    expect(errors).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api\/missing → 404 .*\[fetch\]/);
    expect(errors).toMatch(/\/img\/missing\.png → 404/);
    expect(errors).not.toMatch(/\/api\/ok/);
    const fetches = await h.text('browser_network_log', { resourceType: 'fetch' });
    expect(fetches).toMatch(/\/api\/ok → 200/);
    expect(fetches).not.toMatch(/console\.html/);
  });

  it('writes console messages, page errors, failed requests, the snapshot and DOM to a workspace file', async () => {
    const result = await h.call('browser_debug_dump');
    expect(result.ok).toBe(true);
    const path = result.ok ? (result.structured as { path: string }).path : '';
    expect(path).toMatch(/^debug\/browser-dump-.*\.md$/);
    const dump = readFileSync(join(h.workspace, path), 'utf8');
    expect(dump).toMatch(/error: widget failed to render/);
    expect(dump).toMatch(/warning: deprecated call/);
    expect(dump).toMatch(/Boom from a timer/);
    expect(dump).toMatch(/\/api\/missing → 404 \[fetch\]/);
    expect(dump).toMatch(/## Accessibility snapshot\n\n# Noisy page/);
    expect(dump).toMatch(/<h1>Noisy page<\/h1>/);
  });

  it('still writes a dump while a dialog blocks the page, saying what it skipped', async () => {
    const opened = new Promise<void>((resolve) => {
      const listening = h.manager.dialogs.onOpened(() => {
        listening.dispose();
        resolve();
      });
    });
    await h.manager.activePage()?.evaluate('setTimeout(() => alert("stuck"), 0)');
    await opened;
    const result = await h.call('browser_debug_dump');
    const path = result.ok ? (result.structured as { path: string }).path : '';
    expect(readFileSync(join(h.workspace, path), 'utf8')).toMatch(/skipped: alert dialog "stuck" is open/);
    await h.text('browser_click', { dialog: 'dismiss' });
  });
});
