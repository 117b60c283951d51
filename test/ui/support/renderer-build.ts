/**
 * Builds the renderer once per source state for the UI tests and benchmarks (build-renderer.mjs,
 * in a child process, with the same plugins as electron.vite.config.ts). The output is keyed by a hash of renderer/ and
 * shared/, so a stale build is never served and an unchanged one is reused; a lock directory makes parallel
 * test files wait for one build instead of racing. It builds into test-output/, not out/, so a
 * test run never disturbs a build someone else is making or serving.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execFile } from 'node:child_process';

const ROOT = resolve(__dirname, '../../..');
const BUILDS = join(ROOT, 'test-output', 'ui-build');
const LOCK_STALE_MS = 5 * 60_000;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

export function rendererSourceHash(): string {
  const hash = createHash('sha256');
  for (const file of [...filesUnder(join(ROOT, 'renderer')), ...filesUnder(join(ROOT, 'shared'))]) {
    hash.update(file.slice(ROOT.length));
    hash.update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (predicate()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return predicate();
}

/** Builds of earlier source states pile up otherwise; an hour-old one is no longer in use. */
function removeOldBuilds(keep: string): void {
  for (const name of readdirSync(BUILDS)) {
    const full = join(BUILDS, name);
    if (name !== keep && Date.now() - statSync(full).mtimeMs > 60 * 60_000)
      rmSync(full, { recursive: true, force: true });
  }
}

function buildInChildProcess(outDir: string): Promise<void> {
  return new Promise((done, fail) => {
    // Vitest sets NODE_ENV=test, which would make Vite produce a development bundle; the builder sets production.
    const env = { ...process.env, NODE_ENV: 'production' };
    execFile(
      process.execPath,
      [join(__dirname, 'build-renderer.mjs'), outDir],
      { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (error) fail(new Error(`The renderer build failed: ${stderr || error.message}`));
        else done();
      },
    );
  });
}

/** The folder holding a current renderer build (index.html + assets), building it if needed. */
export async function ensureRendererBuild(): Promise<string> {
  const key = rendererSourceHash();
  const outDir = join(BUILDS, key);
  const done = () => existsSync(join(outDir, 'index.html'));
  if (done()) return outDir;
  mkdirSync(BUILDS, { recursive: true });
  const lock = `${outDir}.lock`;
  try {
    mkdirSync(lock);
  } catch {
    const lockAge = existsSync(lock) ? Date.now() - statSync(lock).mtimeMs : 0;
    if (lockAge < LOCK_STALE_MS && (await waitFor(done, 180_000))) return outDir;
    rmSync(lock, { recursive: true, force: true });
    return ensureRendererBuild();
  }
  try {
    const tmp = `${outDir}.tmp-${process.pid}`;
    await buildInChildProcess(tmp);
    renameSync(tmp, outDir);
    removeOldBuilds(key);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return outDir;
}
