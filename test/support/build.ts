/**
 * Builds the main, preload and renderer bundles once per test run (the first test file that needs
 * them builds; the others wait on a lock file), so tests run against what a user runs.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(__dirname, '../..');
const stamp = resolve(root, 'out', '.built-by-tests');
const lock = resolve(root, 'out', '.build-lock');

function build(): Promise<void> {
  return new Promise((done, fail) => {
    const out: string[] = [];
    const child = spawn(process.execPath, [resolve(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (c: Buffer) => out.push(c.toString()));
    child.stderr.on('data', (c: Buffer) => out.push(c.toString()));
    child.on('exit', (code) =>
      code === 0 ? done() : fail(new Error(`electron-vite build failed (exit ${code}):\n${out.join('')}`)),
    );
  });
}

/** Builds unless a build of this test run (same parent process) is already there. */
export async function ensureBuilt(): Promise<void> {
  const runId = String(process.env.VITEST_RUN_ID ?? process.ppid);
  const fresh = () => existsSync(stamp) && require('node:fs').readFileSync(stamp, 'utf8') === runId;
  if (fresh()) return;
  require('node:fs').mkdirSync(resolve(root, 'out'), { recursive: true });
  let fd: number | undefined;
  const deadline = Date.now() + 120_000;
  while (fd === undefined) {
    try {
      fd = openSync(lock, 'wx');
    } catch {
      if (fresh()) return;
      // A lock older than two minutes belongs to a run that died.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { force: true });
      if (Date.now() > deadline) throw new Error('timed out waiting for another test file to finish building');
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    if (!fresh()) {
      await build();
      writeFileSync(stamp, runId);
    }
  } finally {
    closeSync(fd);
    rmSync(lock, { force: true });
  }
}
