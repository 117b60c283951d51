/**
 * Rule guarded: besides a fresh launch, the manager keeps a persistent profile (state survives a
 * restart) and drives a browser that is already running, over CDP or through a Playwright browser
 * server, without closing it on shutdown.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserServer, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserManager, LINUX_ARGS } from '../../tools/browser';
import { removeDir } from '../support/remove-dir';
import { CHROMIUM, type Harness, browserPipeline, startHarness } from './harness';

let h: Harness;
let profile: string;

beforeAll(async () => {
  // The harness's own browser is never launched here; it only serves the pages.
  h = await startHarness();
  profile = mkdtempSync(join(tmpdir(), 'toolgate-profile-'));
});
afterAll(async () => {
  await h?.close();
  await removeDir(profile);
});

describe('persistent profile', () => {
  it('keeps site storage across a restart of the manager', async () => {
    const first = new BrowserManager({ executablePath: CHROMIUM, userDataDir: profile });
    try {
      const page = await first.page();
      await page.goto(`${h.base}/form.html`);
      await page.evaluate('localStorage.setItem("remember", "me")');
    } finally {
      await first.close();
    }
    const second = new BrowserManager({ executablePath: CHROMIUM, userDataDir: profile });
    try {
      const page = await second.page();
      await page.goto(`${h.base}/form.html`);
      expect(await page.evaluate('localStorage.getItem("remember")')).toBe('me');
      expect(second.connection()).toEqual({ mode: 'persistent', target: CHROMIUM, headless: true });
    } finally {
      await second.close();
    }
  });
});

describe('connecting over CDP', () => {
  let chrome: ChildProcess | undefined;
  let dataDir: string;
  afterAll(async () => {
    const running = chrome;
    if (running?.pid && running.exitCode === null) {
      const exited = new Promise((resolve) => running.once('exit', resolve));
      // The browser leads its own process group: end its helpers with it.
      process.kill(-running.pid, 'SIGTERM');
      await exited;
    }
    await removeDir(dataDir);
  });

  it('drives a running browser and leaves it running when the manager closes', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-cdp-'));
    chrome = spawn(
      CHROMIUM,
      [...LINUX_ARGS, '--headless=new', '--remote-debugging-port=0', `--user-data-dir=${dataDir}`, 'about:blank'],
      { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
    );
    const endpoint = await new Promise<string>((resolve, reject) => {
      let seen = '';
      chrome?.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const m = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
        if (m?.[1]) resolve(m[1]);
      });
      chrome?.once('exit', () => reject(new Error(`chromium exited before listening: ${seen}`)));
    });
    const manager = new BrowserManager({ cdpEndpoint: endpoint });
    const page = await manager.page();
    await page.goto(`${h.base}/form.html`);
    expect(await page.title()).toBe('Sign up');
    expect(manager.telemetry()).toMatchObject({ started: true, pageOpen: true });
    expect(manager.connection()).toEqual({ mode: 'cdp', target: endpoint });
    await manager.close();
    expect(manager.connection()).toBeUndefined();
    expect(chrome.exitCode).toBeNull();
    expect(manager.telemetry().started).toBe(false);
  });
});

describe('connecting to a Playwright browser server', () => {
  let server: BrowserServer | undefined;
  afterAll(async () => server?.close());

  it('drives the served browser with the tools, and leaves the server running when the manager closes', async () => {
    server = await chromium.launchServer({ executablePath: CHROMIUM, args: LINUX_ARGS, headless: true });
    const manager = new BrowserManager({ playwrightServer: server.wsEndpoint() });
    const family = browserPipeline(manager, h.workspace);
    const navigated = await family.call('browser_navigate', { url: `${h.base}/form.html` });
    expect(navigated.ok).toBe(true);
    expect(manager.connection()).toEqual({ mode: 'server', target: server.wsEndpoint() });
    const snapshot = await family.call('browser_snapshot');
    const text = snapshot.ok && snapshot.content[0]?.type === 'text' ? snapshot.content[0].text : '';
    const ref = /(e\d+) textbox "Full name/.exec(text)?.[1];
    expect(ref).toBeDefined();
    const typed = await family.call('browser_input', { ref, text: 'Ada Lovelace' });
    expect(typed.ok).toBe(true);
    expect(await manager.activePage()?.inputValue('input >> nth=0')).toBe('Ada Lovelace');
    await manager.close();
    expect(manager.telemetry().started).toBe(false);
    // Still serving: a new client connects and gets a page.
    const again = await chromium.connect(server.wsEndpoint());
    expect(again.isConnected()).toBe(true);
    await again.close();
  });

  it('answers a structured error with a fix when the server is not there, never repeating its token', async () => {
    const manager = new BrowserManager({
      playwrightServer: 'ws://qa:pass-w0rd-9@127.0.0.1:9/no-server?token=tok-5ecret-42',
      launchTimeoutMs: 3_000,
    });
    const result = await browserPipeline(manager, h.workspace).call('browser_navigate', { url: `${h.base}/form.html` });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatchObject({
        code: 'EXECUTION_FAILED',
        message: expect.stringContaining('Playwright browser server'),
        hint: expect.stringContaining('Settings'),
      });
      expect(result.error.message).not.toMatch(/pass-w0rd-9|tok-5ecret-42/);
    }
    await manager.close();
  });
});
