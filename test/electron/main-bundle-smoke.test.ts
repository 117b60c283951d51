/**
 * Rule: the built main bundle starts the host and opens a hardened window, and its IPC bridge
 * answers only our own window, parsing every argument. Electron itself cannot be downloaded
 * everywhere, so 'electron' is replaced by a recording stub; everything else is the real bundle.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/build';
import { BUILT_MAIN_DIR, type InProcessMain, loadBuiltMainInProcess } from '../support/electron-main-in-process';

let app: InProcessMain;
beforeAll(async () => {
  await ensureBuilt();
  expect(existsSync(join(BUILT_MAIN_DIR, 'index.js'))).toBe(true);
  app = await loadBuiltMainInProcess('toolgate-electron-');
}, 180_000);

afterAll(async () => {
  expect(await app?.quit(10_000)).toBe(0);
});

describe('the built Electron main bundle', () => {
  it('opens one window with context isolation, sandbox and no Node integration', () => {
    expect(app.windows).toHaveLength(1);
    expect(app.windows[0]?.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    expect(app.windows[0]?.loaded).toMatch(/renderer[/\\]index\.html$/);
  });

  it('registers one IPC handler per contract method, and the device screen’s channels', async () => {
    const { METHOD_NAME_LIST, SCREEN_CHANNELS } = await import('../../shared/method-names');
    expect([...app.handlers.keys()].sort()).toEqual(
      [...METHOD_NAME_LIST.map((m) => `toolgate:${m}`), SCREEN_CHANNELS.open].sort(),
    );
    expect([...app.listeners.keys()].sort()).toEqual([SCREEN_CHANNELS.ack, SCREEN_CHANNELS.close].sort());
  });

  it('opens a device screen for its own window only, parsing the request; answers on the screen channel', async () => {
    const open = app.handlers.get('toolgate:screen-open')!;
    const own = { sender: app.windows[0]?.webContents, senderFrame: { url: 'file:///app/out/renderer/index.html' } };
    const stranger = { sender: {}, senderFrame: { url: 'https://evil.example/' } };
    await expect(open(stranger, { serial: 'a', maxWidth: 100, maxHeight: 100 })).rejects.toThrow(/refused/);
    await expect(open(own, { serial: 'a' })).rejects.toThrow(/malformed/);
    const id = await open(own, { serial: 'no-such-phone', maxWidth: 100, maxHeight: 100 });
    expect(typeof id).toBe('number');
    expect(app.sent.at(-1)).toEqual([
      'toolgate:screen',
      id,
      { status: expect.objectContaining({ mode: 'failed', reason: "No device 'no-such-phone' is attached." }) },
    ]);
    app.listeners.get('toolgate:screen-close')!({ sender: app.windows[0]?.webContents }, id);
  });

  it('answers its own window and parses the input', async () => {
    const own = { sender: app.windows[0]?.webContents, senderFrame: { url: 'file:///app/out/renderer/index.html' } };
    const info = (await app.handlers.get('toolgate:info')!(own, {})) as { mode: string; toolCount: number };
    expect(info.mode).toBe('electron');
    expect(info.toolCount).toBeGreaterThan(0);
    await expect(app.handlers.get('toolgate:callTool')!(own, { toolId: 42 })).rejects.toThrow(
      /Invalid input for callTool: toolId/,
    );
  });

  it('refuses a sender that is not its window', async () => {
    const stranger = { sender: {}, senderFrame: { url: 'https://evil.example/' } };
    await expect(app.handlers.get('toolgate:info')!(stranger, {})).rejects.toThrow(/refused/);
  });
});
