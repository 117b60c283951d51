/**
 * Rule: the CPU worker loads in the production bundle too. electron-vite emits it as
 * out/main/cpu-worker.js beside index.js; the bundle's pool picks that file (no TypeScript
 * loader), and a catastrophic regex sent to the bundled host is stopped in the worker while the
 * host answers /healthz. Electron itself cannot be downloaded here, so 'electron' is a stand-in;
 * everything else is the real bundle.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../tools/common/worker-pool';
import { resolveWorkerScript } from '../../tools/common/worker-script';
import { ensureBuilt } from '../support/build';

type Handler = (event: unknown, input?: unknown) => Promise<unknown>;
const handlers = new Map<string, Handler>();
const quitHandlers: Array<(e: { preventDefault(): void }) => void> = [];
const windowContents = { send: () => undefined, setWindowOpenHandler: () => undefined, on: () => undefined };
const userData = mkdtempSync(join(tmpdir(), 'toolgate-bundle-worker-'));
const outMain = resolve(__dirname, '../../out/main');
let exited: number | undefined;

function electronStandIn() {
  class BrowserWindow {
    webContents = windowContents;
    loadFile() {
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
  };
}

const own = { sender: windowContents, senderFrame: { url: 'file:///app/out/renderer/index.html' } };
const call = (channel: string, input: unknown) => handlers.get(`toolgate:${channel}`)!(own, input);

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);

afterAll(async () => {
  for (const fn of quitHandlers) fn({ preventDefault: () => undefined });
  const deadline = Date.now() + 15_000;
  while (quitHandlers.length > 0 && exited === undefined && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  if (quitHandlers.length > 0) expect(exited).toBe(0);
  rmSync(userData, { recursive: true, force: true });
});

describe('the CPU worker in the built bundle', () => {
  it('is emitted next to index.js and chosen over the TypeScript source', () => {
    expect(existsSync(join(outMain, 'cpu-worker.js'))).toBe(true);
    expect(resolveWorkerScript(outMain, 'cpu-worker')).toEqual({ file: join(outMain, 'cpu-worker.js'), execArgv: [] });
  });

  it('runs the real tasks under plain Node, and is stopped at a task bound', async () => {
    const pool = new WorkerPool({ script: resolveWorkerScript(outMain, 'cpu-worker'), size: 1 });
    try {
      expect(
        await pool.run({
          kind: 'math.calculate',
          input: { expression: '2^10', variables: {}, precision: 14 },
          boundMs: 10_000,
        }),
      ).toMatchObject({
        status: 'done',
        value: { result: '1024' },
      });
      const hostile = { pattern: '(a+)+$', flags: '', text: `${'a'.repeat(40)}!`, maxMatches: 10, group: undefined };
      expect(await pool.run({ kind: 'regex.extract', input: hostile, boundMs: 500 })).toEqual({
        status: 'timeout',
        boundMs: 500,
      });
      const plain = { ...hostile, pattern: 'a+' };
      expect(await pool.run({ kind: 'regex.extract', input: plain, boundMs: 10_000 })).toMatchObject({
        status: 'done',
        value: { count: 1 },
      });
    } finally {
      await pool.close();
    }
  });

  it('stops a catastrophic regex sent to the bundled host while /healthz answers', async () => {
    process.env.TOOLGATE_PORT = '0';
    process.env.TOOLGATE_QUIET = '1';
    const standIn = electronStandIn();
    const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
    const original = loader._load;
    loader._load = function (request: string, ...rest: unknown[]) {
      if (request === 'electron') return standIn;
      return original.call(this, request, ...rest);
    };
    require(join(outMain, 'index.js'));
    await expect.poll(() => handlers.size, { timeout: 30_000 }).toBeGreaterThan(0);
    const info = (await call('info', {})) as { uiUrl: string };
    let settled = false;
    const hostile = call('callTool', {
      toolId: 'regex_extract',
      args: { pattern: '(a+)+$', text: `${'a'.repeat(40)}!` },
    }).finally(() => {
      settled = true;
    });
    const health = await fetch(new URL('/healthz', info.uiUrl));
    expect(health.status).toBe(200);
    expect(settled).toBe(false);
    const outcome = (await hostile) as { ok: boolean; error?: { code: string; message: string } };
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatchObject({
      code: 'TIMEOUT',
      message: 'regex_extract ran past its 2 s bound and was stopped; simplify the pattern.',
    });
  });
});
