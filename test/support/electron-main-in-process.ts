/**
 * Loads the built Electron main bundle (out/main/index.js) into the test's own process, with a
 * recording stand-in resolved in place of `electron`. The Electron binary downloads from outside
 * the npm registry and is absent on many machines; everything but `electron` is the real bundle.
 * (test/support/electron-standin.cjs does the same for a bundle started as a child process.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export type IpcHandler = (event: unknown, input?: unknown) => Promise<unknown>;
export type IpcListener = (event: unknown, ...args: unknown[]) => void;
export interface RecordedWindow {
  options: Record<string, unknown>;
  webContents: Record<string, unknown>;
  loaded?: string;
}

export interface InProcessMain {
  readonly handlers: Map<string, IpcHandler>;
  /** `ipcMain.on` listeners (one-way messages from the window, e.g. the device screen's acks). */
  readonly listeners: Map<string, IpcListener>;
  /** Every `webContents.send(channel, ...args)` the app made to its window, in order. */
  readonly sent: unknown[][];
  readonly windows: RecordedWindow[];
  readonly userData: string;
  /** Calls `toolgate:<channel>` as the app's own window would. */
  call(channel: string, input: unknown): Promise<unknown>;
  /** Runs the app's will-quit handlers and resolves with its exit code. */
  quit(timeoutMs?: number): Promise<number | undefined>;
}

export const BUILT_MAIN_DIR = resolve(__dirname, '../../out/main');

async function waitFor(check: () => boolean, what: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts the bundle once per test file (Node caches the module); call after ensureBuilt(). */
export async function loadBuiltMainInProcess(prefix: string): Promise<InProcessMain> {
  const handlers = new Map<string, IpcHandler>();
  const listeners = new Map<string, IpcListener>();
  const sent: unknown[][] = [];
  const windows: RecordedWindow[] = [];
  const quitHandlers: Array<(e: { preventDefault(): void }) => void> = [];
  const userData = mkdtempSync(join(tmpdir(), prefix));
  let exited: number | undefined;
  const webContents = {
    send: (...args: unknown[]) => void sent.push(args),
    setWindowOpenHandler: () => undefined,
    on: () => undefined,
  };

  class BrowserWindow {
    webContents = webContents;
    loaded?: string;
    constructor(readonly options: Record<string, unknown>) {
      windows.push(this);
    }
    loadFile(file: string) {
      this.loaded = file;
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
  const standIn = {
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
      handle: (channel: string, fn: IpcHandler) => handlers.set(channel, fn),
      removeHandler: (channel: string) => handlers.delete(channel),
      on: (channel: string, fn: IpcListener) => listeners.set(channel, fn),
      removeListener: (channel: string) => listeners.delete(channel),
    },
    Notification: Object.assign(class {}, { isSupported: () => false }),
    shell: { openExternal: () => Promise.resolve() },
    // Chromium's Linux sealing, with no keyring (basic_text), as on this machine.
    safeStorage: (
      require('./chromium-safe-storage.cjs') as { chromiumSafeStorage(env: object): unknown }
    ).chromiumSafeStorage({}),
  };

  process.env.TOOLGATE_PORT = '0';
  process.env.TOOLGATE_QUIET = '1';
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const original = loader._load;
  loader._load = function (request: string, ...rest: unknown[]) {
    if (request === 'electron') return standIn;
    return original.call(this, request, ...rest);
  };
  require(join(BUILT_MAIN_DIR, 'index.js'));
  await waitFor(() => handlers.size > 0, 'the IPC handlers', 30_000);

  const own = { sender: webContents, senderFrame: { url: 'file:///app/out/renderer/index.html' } };
  return {
    handlers,
    listeners,
    sent,
    windows,
    userData,
    call: (channel, input) => {
      const handler = handlers.get(`toolgate:${channel}`);
      if (!handler) throw new Error(`no IPC handler toolgate:${channel}`);
      return handler(own, input);
    },
    quit: async (timeoutMs = 15_000) => {
      for (const fn of quitHandlers) fn({ preventDefault: () => undefined });
      await waitFor(() => exited !== undefined, 'the app to exit', timeoutMs);
      rmSync(userData, { recursive: true, force: true });
      return exited;
    },
  };
}
