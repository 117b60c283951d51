/**
 * Rule guarded: nothing in the browser makes a tool hang or crash the agent loop. A page that
 * never loads is a TIMEOUT with a hint; a modal dialog is reported with how to answer it; a
 * crashed tab or a closed browser is one structured error and the next call relaunches; a missing
 * browser says how to install one; a cancelled call stops waiting.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserManager } from '../../tools/browser';
import { type Harness, browserPipeline, errorOf, refOf, startHarness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('a browser that is not installed', () => {
  it('answers every page tool with UNSUPPORTED saying how to install Chromium', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'toolgate-nobrowser-'));
    try {
      const family = browserPipeline(new BrowserManager({ executablePath: '/nonexistent/chrome' }), workspace);
      const result = await family.call('browser_navigate', { url: 'https://example.com' });
      const err = errorOf(result);
      expect(err.code).toBe('UNSUPPORTED');
      expect(err.message).toMatch(/apt-get install chromium/);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe('slow and dead pages', () => {
  it('answers a page that never responds with TIMEOUT and a hint about waitUntil and timeoutMs', async () => {
    const err = errorOf(await h.call('browser_navigate', { url: `${h.base}/never`, timeoutMs: 1000 }));
    expect(err.code).toBe('TIMEOUT');
    expect(err.hint).toMatch(/waitUntil/);
    expect(err.hint).toMatch(/timeoutMs/);
  });

  it('stops waiting when the call is cancelled', async () => {
    const ended = () => h.manager.recentActions(50).filter((a) => a.tool === 'browser_navigate').length;
    const before = ended();
    const abort = new AbortController();
    const pending = h.call('browser_navigate', { url: `${h.base}/never`, timeoutMs: 60_000 }, abort.signal);
    abort.abort();
    // The pipeline answers the cancelled call at once; the tool stops its navigation too, long before its 60 s.
    expect(errorOf(await pending)).toMatchObject({ code: 'EXECUTION_FAILED', data: { cancelled: true } });
    await expect.poll(ended, { timeout: 5_000 }).toBe(before + 1);
  });

  it('waits for a slow page and reports it loaded', async () => {
    expect(await h.text('browser_navigate', { url: `${h.base}/slow?ms=1200` })).toMatch(
      /Loaded \(HTTP 200\)\. Now on "Slow"/,
    );
  });

  it('reports a server error status without failing the call', async () => {
    expect(await h.text('browser_navigate', { url: `${h.base}/api/missing` })).toMatch(/HTTP 404/);
  });

  it('answers a connection refused with EXECUTION_FAILED naming the network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = errorOf(await h.call('browser_navigate', { url: `http://127.0.0.1:${port}/` }));
    expect(err.code).toBe('EXECUTION_FAILED');
    expect(err.message).toMatch(/ERR_CONNECTION_REFUSED/);
  });
});

describe('modal dialogs', () => {
  let snap: string;
  beforeAll(async () => {
    await h.text('browser_navigate', { url: `${h.base}/dialogs.html` });
    snap = await h.text('browser_snapshot');
  });

  it('refuses to answer a dialog when none is open', async () => {
    expect(errorOf(await h.call('browser_click', { dialog: 'accept' })).code).toBe('NOT_FOUND');
  });

  it('refuses promptText without accepting', async () => {
    expect(errorOf(await h.call('browser_click', { dialog: 'dismiss', promptText: 'x' })).code).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it('returns at once when a click opens an alert, then refuses other tools until it is answered', async () => {
    const opened = await h.text('browser_click', { ref: refOf(snap, /button "Show alert"/) });
    expect(opened).toMatch(/opened a modal alert dialog saying "Saved!"/);
    expect(opened).toMatch(/"dialog": "accept"/);
    expect(h.manager.telemetry()).toMatchObject({ dialogOpen: true, dialog: { type: 'alert', message: 'Saved!' } });
    const refused = errorOf(await h.call('browser_snapshot'));
    expect(refused.code).toBe('EXECUTION_FAILED');
    expect(refused.message).toMatch(/blocked by a modal alert dialog/);
    expect(await h.text('browser_click', { dialog: 'accept' })).toMatch(/Accepted the alert dialog "Saved!"/);
    expect(h.manager.telemetry().dialogOpen).toBe(false);
    expect(await h.text('browser_snapshot')).toContain('status: after alert');
  });

  it('dismisses a confirm and accepts the next one', async () => {
    const del = refOf(snap, /button "Delete all"/);
    await h.text('browser_click', { ref: del });
    await h.text('browser_click', { dialog: 'dismiss' });
    expect(await h.text('browser_snapshot')).toContain('status: cancelled');
    await h.text('browser_click', { ref: del });
    await h.text('browser_click', { dialog: 'accept' });
    expect(await h.text('browser_snapshot')).toContain('status: confirmed');
  });

  it('answers a prompt with promptText', async () => {
    expect(await h.text('browser_click', { ref: refOf(snap, /button "Ask name"/) })).toMatch(
      /modal prompt dialog saying "Your name\?"[\s\S]*promptText/,
    );
    await h.text('browser_click', { dialog: 'accept', promptText: 'Grace' });
    expect(await h.text('browser_snapshot')).toContain('status: name=Grace');
  });

  it('reports a beforeunload dialog on navigation and leaves the page when it is accepted', async () => {
    await h.text('browser_click', { ref: refOf(snap, /button "Arm leave warning"/) });
    const leaving = await h.text('browser_navigate', { url: `${h.base}/form.html` });
    expect(leaving).toMatch(/beforeunload dialog/);
    expect(await h.text('browser_click', { dialog: 'accept' })).toContain(
      'Accepted the beforeunload dialog. The interrupted browser_navigate then finished: Loaded (HTTP 200). ' +
        'Now on "Sign up"',
    );
    expect(await h.text('browser_snapshot')).toContain('# Create your account');
  });
});

describe('crashes and a closed browser', () => {
  it('reports a crashed tab once, then opens a fresh tab on the next call', async () => {
    await h.text('browser_navigate', { url: `${h.base}/form.html` });
    const err = errorOf(await h.call('browser_navigate', { url: 'chrome://crash' }));
    expect(err.code).toBe('EXECUTION_FAILED');
    expect(err.message).toMatch(/tab crashed/);
    expect(await h.text('browser_navigate', { url: `${h.base}/form.html` })).toMatch(/Now on "Sign up"/);
    expect(h.manager.telemetry()).toMatchObject({ started: true, pageOpen: true });
  });

  it('reports a browser closed under it once, then relaunches on the next call', async () => {
    await h.text('browser_navigate', { url: `${h.base}/form.html` });
    await h.manager.activePage()?.context().browser()?.close();
    expect(h.manager.telemetry()).toMatchObject({ started: false, pageOpen: false });
    const err = errorOf(await h.call('browser_snapshot'));
    expect(err.code).toBe('EXECUTION_FAILED');
    expect(err.message).toMatch(/browser was closed/);
    expect(await h.text('browser_navigate', { url: `${h.base}/form.html` })).toMatch(/Now on "Sign up"/);
    expect(await h.text('browser_snapshot')).toContain('# Create your account');
  });
});
