/**
 * Rule: the desktop app starts. The built main bundle (`out/main/index.js`, what Electron runs) is
 * started in its own Node 24 process with Electron's main-process API stood in
 * (test/support/electron-standin.cjs): the host answers /healthz on TOOLGATE_PORT, the window loads
 * the built renderer with the built preload, every contract method (and opening a device screen) has an IPC handler,
 * and quitting closes the database and exits 0. This is what only a real start would otherwise show (a native
 * addon built for another Node, a module missing from the bundle, a crash at start-up).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHOD_NAME_LIST, SCREEN_CHANNELS } from '../../shared/method-names';
import { pragmaValue } from '../../tools/common/sqlite';
import { ensureBuilt } from '../support/build';
import { freePort } from '../support/private-adb';
import { removeDir } from '../support/remove-dir';

const root = resolve(__dirname, '../..');
const bundle = join(root, 'out/main/index.js');

type Report =
  | { kind: 'window'; loaded: string; preload: string; webPreferences: Record<string, unknown> }
  | { kind: 'handler'; channel: string };

let child: ChildProcess;
let userData: string;
let port: number;
let stderr = '';
const reports: Report[] = [];
let exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}) before ${what}:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  await ensureBuilt();
  userData = mkdtempSync(join(tmpdir(), 'toolgate-desktop-'));
  port = await freePort();
  child = fork(bundle, [], {
    execArgv: ['--require', join(root, 'test/support/electron-standin.cjs')],
    env: { ...process.env, TOOLGATE_PORT: String(port), TOOLGATE_STANDIN_USER_DATA: userData, TOOLGATE_QUIET: '1' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  child.on('message', (m) => reports.push(m as Report));
  exit = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
});

afterAll(async () => {
  if (child.exitCode === null) child.kill('SIGKILL');
  await removeDir(userData);
});

describe('the desktop app, started from its built bundle under Node', () => {
  it('runs on the Node it was started with (Node 24, the Node of Electron 45)', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });

  it('answers /healthz on TOOLGATE_PORT', async () => {
    const status = await until('answering /healthz', () =>
      fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.status,
        () => undefined,
      ),
    );
    expect(status).toBe(200);
  });

  it('loads the built renderer into a hardened window with the built preload', async () => {
    const window = await until('opening its window', () => reports.find((r) => r.kind === 'window'));
    expect(window.loaded).toBe(join(root, 'out/renderer/index.html'));
    expect(existsSync(window.loaded)).toBe(true);
    expect(window.preload).toBe(join(root, 'out/preload/index.js'));
    expect(existsSync(window.preload)).toBe(true);
    expect(window.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
  });

  it('has an IPC handler for every contract method, and one that opens a device screen', async () => {
    const expected = [...METHOD_NAME_LIST.map((m) => `toolgate:${m}`), SCREEN_CHANNELS.open].sort();
    const channels = await until('registering its IPC handlers', () => {
      const seen = reports.flatMap((r) => (r.kind === 'handler' ? [r.channel] : []));
      return seen.length >= expected.length ? seen : undefined;
    });
    expect([...channels].sort()).toEqual(expected);
  });

  it('closes its database and exits 0 when quit', async () => {
    child.send({ kind: 'quit' });
    expect(await exit).toEqual({ code: 0, signal: null });
    // A cleanly closed WAL database has checkpointed and removed its -wal file.
    expect(existsSync(join(userData, 'toolgate.db-wal'))).toBe(false);
    const db = new DatabaseSync(join(userData, 'toolgate.db'), { readOnly: true });
    expect(pragmaValue(db, 'integrity_check')).toBe('ok');
    db.close();
    expect(stderr).not.toMatch(/failed to start/i);
  });
});
