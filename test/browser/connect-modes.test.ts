/**
 * Rule guarded: besides a fresh launch, the manager keeps a persistent profile (state survives a
 * restart) and drives a browser that is already running over CDP without closing it on shutdown.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserManager, LINUX_ARGS } from '../../tools/browser';
import { removeDir } from '../support/remove-dir';
import { CHROMIUM, type Harness, startHarness } from './harness';

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
    chrome = spawn(CHROMIUM, [...LINUX_ARGS, '--headless=new', '--remote-debugging-port=0', `--user-data-dir=${dataDir}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
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
    await manager.close();
    expect(chrome.exitCode).toBeNull();
    expect(manager.telemetry().started).toBe(false);
  });
});
