/**
 * Rule: the built main bundle starts the host and opens a hardened window, and its IPC bridge
 * answers only our own window, parsing every argument. Electron itself cannot be downloaded
 * everywhere, so 'electron' is replaced by a recording stub; everything else is the real bundle.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/build';

type Handler = (event: unknown, input?: unknown) => Promise<unknown>;
const handlers = new Map<string, Handler>();
const windows: Array<{ options: Record<string, unknown>; webContents: Record<string, unknown>; loaded?: string }> = [];
const quitHandlers: Array<(e: { preventDefault(): void }) => void> = [];
let exited: number | undefined;
const userData = mkdtempSync(join(tmpdir(), 'toolgate-electron-'));

async function waitFor(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function electronStub() {
  const webContents = { send: () => undefined, setWindowOpenHandler: () => undefined, on: () => undefined };
  class BrowserWindow {
    webContents = webContents;
    constructor(readonly options: Record<string, unknown>) {
      windows.push(this as never);
    }
    loadFile(file: string) {
      (this as unknown as { loaded: string }).loaded = file;
      return Promise.resolve();
    }
    once() {}
    show() {}
    isDestroyed() {
      return false;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    focus() {}
  }
  return {
    app: {
      requestSingleInstanceLock: () => true,
      whenReady: () => Promise.resolve(),
      getPath: () => userData,
      getVersion: () => '0.0.0-test',
      on: (name: string, fn: (e: { preventDefault(): void }) => void) => {
        if (name === 'will-quit') quitHandlers.push(fn);
      },
      quit: () => undefined,
      exit: (code: number) => {
        exited = code;
      },
    },
    BrowserWindow,
    ipcMain: {
      handle: (channel: string, fn: Handler) => handlers.set(channel, fn),
      removeHandler: (channel: string) => handlers.delete(channel),
    },
    Notification: Object.assign(class {}, { isSupported: () => false }),
    shell: { openExternal: () => Promise.resolve() },
    // Chromium's Linux sealing, with no keyring (basic_text), as on this machine.
    safeStorage: (
      require('../support/chromium-safe-storage.cjs') as { chromiumSafeStorage(env: object): unknown }
    ).chromiumSafeStorage({}),
  };
}

const bundle = resolve(__dirname, '../../out/main/index.js');

beforeAll(async () => {
  await ensureBuilt();
  expect(existsSync(bundle)).toBe(true);
  process.env.TOOLGATE_PORT = '0';
  process.env.TOOLGATE_QUIET = '1';
  const stub = electronStub();
  const original = (Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown })._load;
  (Module as unknown as { _load: unknown })._load = function (request: string, ...rest: unknown[]) {
    if (request === 'electron') return stub;
    return original.call(this, request, ...rest);
  };
  require(bundle);
  await waitFor(() => handlers.size > 0, 'the IPC handlers');
});

afterAll(async () => {
  for (const fn of quitHandlers) fn({ preventDefault: () => undefined });
  await waitFor(() => exited !== undefined, 'the app to exit', 10_000);
  expect(exited).toBe(0);
  rmSync(userData, { recursive: true, force: true });
});

describe('the built Electron main bundle', () => {
  it('opens one window with context isolation, sandbox and no Node integration', () => {
    expect(windows).toHaveLength(1);
    expect(windows[0]?.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    expect(windows[0]?.loaded).toMatch(/renderer[/\\]index\.html$/);
  });

  it('registers one IPC handler per contract method', async () => {
    const { METHOD_NAME_LIST } = await import('../../shared/method-names');
    expect([...handlers.keys()].sort()).toEqual(METHOD_NAME_LIST.map((m) => `toolgate:${m}`).sort());
  });

  it('answers its own window and parses the input', async () => {
    const own = { sender: windows[0]?.webContents, senderFrame: { url: 'file:///app/out/renderer/index.html' } };
    const info = (await handlers.get('toolgate:info')!(own, {})) as { mode: string; toolCount: number };
    expect(info.mode).toBe('electron');
    expect(info.toolCount).toBeGreaterThan(0);
    await expect(handlers.get('toolgate:callTool')!(own, { toolId: 42 })).rejects.toThrow(
      /Invalid input for callTool: toolId/,
    );
  });

  it('refuses a sender that is not its window', async () => {
    const stranger = { sender: {}, senderFrame: { url: 'https://evil.example/' } };
    await expect(handlers.get('toolgate:info')!(stranger, {})).rejects.toThrow(/refused/);
  });
});
