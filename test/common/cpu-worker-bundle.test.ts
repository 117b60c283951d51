/**
 * Rule: the CPU worker loads in the production bundle too. electron-vite emits it as
 * out/main/cpu-worker.js beside index.js; the bundle's pool picks that file (no TypeScript
 * loader), and a catastrophic regex sent to the bundled host is stopped in the worker while the
 * host answers /healthz. Electron itself cannot be downloaded here, so 'electron' is a stand-in;
 * everything else is the real bundle.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../tools/common/worker-pool';
import { resolveWorkerScript } from '../../tools/common/worker-script';
import { ensureBuilt } from '../support/build';
import {
  BUILT_MAIN_DIR as outMain,
  type InProcessMain,
  loadBuiltMainInProcess,
} from '../support/electron-main-in-process';

let app: InProcessMain;
beforeAll(async () => {
  await ensureBuilt();
  app = await loadBuiltMainInProcess('toolgate-bundle-worker-');
}, 180_000);

afterAll(async () => {
  expect(await app?.quit()).toBe(0);
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
    const info = (await app.call('info', {})) as { uiUrl: string };
    let settled = false;
    const hostile = app
      .call('callTool', {
        toolId: 'regex_extract',
        args: { pattern: '(a+)+$', text: `${'a'.repeat(40)}!` },
      })
      .finally(() => {
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
