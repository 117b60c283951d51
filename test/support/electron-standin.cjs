/**
 * A stand-in for Electron's main-process API, resolved in place of `electron` when the built main
 * bundle runs under plain Node (`node --require test/support/electron-standin.cjs out/main/index.js`).
 * The Electron binary downloads from outside the npm registry and is absent on many machines; this
 * lets a test start the real bundle as the app would. It reports what the app did to the parent
 * test over the child-process IPC channel ({ kind: 'window' | 'handler' | 'quit-requested' }), and
 * quits the app when the parent sends { kind: 'quit' }, running the app's will-quit handlers.
 * { kind: 'invoke', id, channel, input } calls an IPC handler as the app's own window would and
 * answers { kind: 'invoked', id, ok, value | error }.
 *
 * safeStorage is chromium-safe-storage.cjs, which seals as Chromium does on Linux.
 */
'use strict';
const Module = require('node:module');
const os = require('node:os');
const { chromiumSafeStorage } = require('./chromium-safe-storage.cjs');

const report = (message) => process.send?.(message);
const listeners = new Map();
const on = (name, fn) => {
  if (!listeners.has(name)) listeners.set(name, []);
  listeners.get(name).push(fn);
};
const emit = (name, ...args) => {
  for (const fn of listeners.get(name) ?? []) fn(...args);
};

function quit() {
  let prevented = false;
  emit('before-quit', { preventDefault: () => (prevented = true) });
  if (prevented) return;
  emit('will-quit', { preventDefault: () => undefined });
}

class WebContents {
  constructor() {
    this.sent = [];
  }
  send(channel) {
    this.sent.push(channel);
  }
  setWindowOpenHandler() {}
  on() {}
}

class BrowserWindow {
  constructor(options) {
    this.options = options;
    this.webContents = new WebContents();
    ownWindow = this;
  }
  loadFile(file) {
    this.loaded = file;
    report({
      kind: 'window',
      loaded: file,
      preload: this.options?.webPreferences?.preload,
      webPreferences: this.options?.webPreferences,
    });
    return Promise.resolve();
  }
  once() {}
  on() {}
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

const safeStorage = chromiumSafeStorage(process.env);

const handlers = new Map();
let ownWindow;

const standin = {
  app: {
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    getPath: (name) => process.env.TOOLGATE_STANDIN_USER_DATA ?? `${os.tmpdir()}/toolgate-standin-${name}`,
    getVersion: () => '0.0.0-standin',
    on,
    quit,
    exit: (code) => process.exit(code),
  },
  BrowserWindow,
  ipcMain: {
    handle: (channel, fn) => {
      handlers.set(channel, fn);
      report({ kind: 'handler', channel });
    },
    removeHandler: (channel) => handlers.delete(channel),
    on: () => undefined,
    removeListener: () => undefined,
  },
  safeStorage,
  Notification: Object.assign(class {}, { isSupported: () => false }),
  shell: { openExternal: () => Promise.resolve() },
};

const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'electron') return standin;
  return load.call(this, request, ...rest);
};

/** Calls a handler as the app's own window's page does (the bridge checks the sender). */
async function invoke({ id, channel, input }) {
  const handler = handlers.get(channel);
  const event = { sender: ownWindow?.webContents, senderFrame: { url: `file://${ownWindow?.loaded ?? ''}` } };
  try {
    if (!handler) throw new Error(`no handler for ${channel}`);
    report({ kind: 'invoked', id, ok: true, value: await handler(event, input) });
  } catch (e) {
    report({ kind: 'invoked', id, ok: false, error: e instanceof Error ? e.message : String(e) });
  }
}

process.on('message', (message) => {
  if (message && message.kind === 'quit') quit();
  if (message && message.kind === 'invoke') void invoke(message);
});
