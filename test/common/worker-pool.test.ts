/**
 * Rule: CPU-bound work runs on worker threads that the host can always stop. A task that passes
 * its bound has its thread terminated and replaced and ends as a timeout; a cancelled task is
 * stopped the same way; a full lane refuses as busy; a crashed or exhausted thread is replaced;
 * free threads serve the tools round-robin; and an idle pool never keeps the process alive.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { type PoolOutcome, WorkerPool, type WorkerPoolOptions } from '../../tools/common/worker-pool';
import { resolveWorkerScript } from '../../tools/common/worker-script';

const script = resolveWorkerScript(__dirname, 'pool-test-worker');
const pools: WorkerPool[] = [];

function pool(options: Partial<WorkerPoolOptions> = {}): WorkerPool {
  const p = new WorkerPool({ script, size: 2, ...options });
  pools.push(p);
  return p;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

type Echo = { input: unknown; threadId: number };

function echoed(outcome: PoolOutcome): Echo {
  if (outcome.status !== 'done') throw new Error(`expected done, got ${JSON.stringify(outcome)}`);
  return outcome.value as Echo;
}

async function until(check: () => boolean): Promise<void> {
  await expect.poll(check, { timeout: 20_000, interval: 10 }).toBe(true);
}

describe('a worker pool', () => {
  it('warm() starts one thread before any task, and the first task runs on it', async () => {
    const p = pool();
    p.warm();
    p.warm();
    expect(p.stats()).toMatchObject({ threads: 1, started: 1 });
    echoed(await p.run({ kind: 'echo', input: 1, boundMs: 10_000 }));
    expect(p.stats()).toMatchObject({ started: 1 });
  });

  it('runs a task on a worker thread and returns its plain value', async () => {
    const p = pool();
    const value = echoed(await p.run({ kind: 'echo', input: { a: [1, 'two'] }, boundMs: 10_000 }));
    expect(value.input).toEqual({ a: [1, 'two'] });
    expect(value.threadId).not.toBe(threadId);
  });

  it('runs its threads below the host thread’s priority, so a busy worker yields a shared core', async () => {
    const host = getPriority();
    const outcome = await pool().run({ kind: 'niceness', input: null, boundMs: 10_000 });
    expect(outcome).toEqual({ status: 'done', value: Math.min(19, host + 10) });
  });

  it('starts a thread below the host thread’s priority before its modules load, a replacement too', async () => {
    const host = getPriority();
    const starting = pool({ script: resolveWorkerScript(__dirname, 'priority-at-load-worker') });
    const outcome = await starting.run({ kind: 'nicenessAtLoad', input: null, boundMs: 10_000 });
    expect(outcome).toEqual({ status: 'done', value: Math.min(19, host + 10) });
  });

  it('returns an error a task throws with its code, hint and data', async () => {
    const outcome = await pool().run({ kind: 'fail', input: null, boundMs: 10_000 });
    expect(outcome).toEqual({
      status: 'failed',
      error: { code: 'INVALID_ARGUMENT', message: 'The input is bad.', hint: 'Fix it.', data: { fields: ['x'] } },
    });
  });

  it('refuses an input that cannot be copied to a thread, and keeps the thread', async () => {
    const p = pool({ size: 1 });
    const before = echoed(await p.run({ kind: 'echo', input: 1, boundMs: 10_000 }));
    const outcome = await p.run({ kind: 'echo', input: { f: () => 1 }, boundMs: 10_000 });
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'INVALID_ARGUMENT' } });
    expect(echoed(await p.run({ kind: 'echo', input: 2, boundMs: 10_000 })).threadId).toBe(before.threadId);
  });

  it('answers an unknown task kind as unsupported', async () => {
    const outcome = await pool().run({ kind: 'nope', input: null, boundMs: 10_000 });
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'UNSUPPORTED' } });
  });

  it('terminates a task that passes its bound, replaces its thread, and runs the next task', async () => {
    const p = pool({ size: 1 });
    const before = echoed(await p.run({ kind: 'echo', input: 1, boundMs: 10_000 }));
    expect(await p.run({ kind: 'spin', input: null, boundMs: 300 })).toEqual({ status: 'timeout', boundMs: 300 });
    await until(() => p.stats().exited === 1);
    const after = echoed(await p.run({ kind: 'echo', input: 2, boundMs: 10_000 }));
    expect(after.threadId).not.toBe(before.threadId);
    expect(p.stats()).toEqual({ threads: 1, busy: 0, waiting: 0, started: 2, exited: 1 });
  });

  it('terminates a running task when its signal aborts', async () => {
    const p = pool({ size: 1 });
    const before = echoed(await p.run({ kind: 'echo', input: 1, boundMs: 10_000 }));
    const controller = new AbortController();
    const spinning = p.run({ kind: 'spin', input: null, boundMs: 60_000, signal: controller.signal });
    await until(() => p.stats().busy === 1);
    controller.abort();
    expect(await spinning).toEqual({ status: 'cancelled' });
    await until(() => p.stats().exited === 1);
    expect(echoed(await p.run({ kind: 'echo', input: 2, boundMs: 10_000 })).threadId).not.toBe(before.threadId);
  });

  it('drops a waiting task whose signal aborts before it ran', async () => {
    const p = pool({ size: 1 });
    const spinning = p.run({ kind: 'spin', input: null, boundMs: 1500 });
    await until(() => p.stats().busy === 1);
    const controller = new AbortController();
    const waiting = p.run({ kind: 'echo', input: 1, boundMs: 10_000, signal: controller.signal });
    expect(p.stats().waiting).toBe(1);
    controller.abort();
    expect(await waiting).toEqual({ status: 'cancelled' });
    expect(p.stats().waiting).toBe(0);
    expect(await spinning).toEqual({ status: 'timeout', boundMs: 1500 });
  });

  it('refuses a task as busy when its lane is full, and still takes another lane', async () => {
    const p = pool({ size: 1, maxQueuedPerLane: 2 });
    const spin = () => p.run({ kind: 'spin', input: null, boundMs: 400, lane: 'regex' });
    const held = [spin()];
    await until(() => p.stats().busy === 1);
    held.push(spin(), spin());
    expect(await p.run({ kind: 'spin', input: null, boundMs: 400, lane: 'regex' })).toEqual({
      status: 'busy',
      waiting: 2,
    });
    const other = p.run({ kind: 'echo', input: 'other', boundMs: 10_000, lane: 'calculate' });
    expect((await Promise.all(held)).map((o) => o.status)).toEqual(['timeout', 'timeout', 'timeout']);
    expect(echoed(await other).input).toBe('other');
  });

  it('gives a free thread to the tool with the fewest tasks running', async () => {
    const p = pool({ size: 2 });
    const order: string[] = [];
    const track = (name: string, outcome: Promise<PoolOutcome>) => outcome.then(() => order.push(name));
    const spinA = track('spinA', p.run({ kind: 'spin', input: null, boundMs: 4000, lane: 'a' }));
    const spinB = track('spinB', p.run({ kind: 'spin', input: null, boundMs: 800, lane: 'b' }));
    await until(() => p.stats().busy === 2);
    const a1 = track('a1', p.run({ kind: 'echo', input: null, boundMs: 10_000, lane: 'a' }));
    const b1 = track('b1', p.run({ kind: 'echo', input: null, boundMs: 10_000, lane: 'b' }));
    await Promise.all([spinA, spinB, a1, b1]);
    expect(order).toEqual(['spinB', 'b1', 'a1', 'spinA']);
  });

  it('serves the next tool before the rest of one tool’s backlog', async () => {
    const p = pool({ size: 1 });
    const order: string[] = [];
    const track = (name: string, lane: string) =>
      p.run({ kind: 'echo', input: name, boundMs: 10_000, lane }).then(() => order.push(name));
    const first = p.run({ kind: 'spin', input: null, boundMs: 500, lane: 'a' }).then(() => order.push('a0'));
    await Promise.all([first, track('a1', 'a'), track('a2', 'a'), track('b1', 'b')]);
    expect(order).toEqual(['a0', 'b1', 'a1', 'a2']);
  });

  it('replaces a thread that exits in the middle of a task', async () => {
    const p = pool({ size: 1 });
    const before = echoed(await p.run({ kind: 'echo', input: 1, boundMs: 10_000 }));
    expect(await p.run({ kind: 'crash', input: null, boundMs: 10_000 })).toEqual({
      status: 'crashed',
      why: 'it exited with code 7',
    });
    expect(echoed(await p.run({ kind: 'echo', input: 2, boundMs: 10_000 })).threadId).not.toBe(before.threadId);
  });

  it('replaces a thread that runs out of its memory bound', async () => {
    const p = pool({ size: 1, heapMb: 64 });
    expect(await p.run({ kind: 'hoard', input: null, boundMs: 30_000 })).toEqual({
      status: 'crashed',
      why: 'it ran out of its 64 MB memory bound',
    });
    expect(echoed(await p.run({ kind: 'echo', input: 'after', boundMs: 10_000 })).input).toBe('after');
  });

  it('ends the waiting tasks of an entry that cannot load, without restarting it in a loop', async () => {
    const p = pool({ script: resolveWorkerScript(__dirname, 'broken-test-worker') });
    const outcome = await p.run({ kind: 'echo', input: 1, boundMs: 10_000 });
    expect(outcome).toMatchObject({ status: 'crashed' });
    expect(outcome.status === 'crashed' && outcome.why).toMatch(
      /could not start: it crashed \(this entry cannot load\)/,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(p.stats().threads).toBe(0);
  });

  it('answers closed once closed', async () => {
    const p = pool();
    const spinning = p.run({ kind: 'spin', input: null, boundMs: 60_000 });
    await until(() => p.stats().busy === 1);
    await p.close();
    expect(await spinning).toEqual({ status: 'closed' });
    expect(await p.run({ kind: 'echo', input: 1, boundMs: 1000 })).toEqual({ status: 'closed' });
    expect(p.stats().threads).toBe(0);
  });

  it('does not keep the process alive once its work is done', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-pool-'));
    try {
      const file = join(dir, 'idle-exit.ts');
      const poolModule = pathToFileURL(resolve(__dirname, '../../tools/common/worker-pool.ts')).href;
      const scriptModule = pathToFileURL(resolve(__dirname, '../../tools/common/worker-script.ts')).href;
      writeFileSync(
        file,
        [
          `import { WorkerPool } from '${poolModule}';`,
          `import { resolveWorkerScript } from '${scriptModule}';`,
          'const pool = new WorkerPool({ script: ' +
            `resolveWorkerScript(${JSON.stringify(__dirname)}, 'pool-test-worker') });`,
          `pool.run({ kind: 'echo', input: 'x', boundMs: 10000 }).then((o) => console.log(o.status));`,
        ].join('\n'),
      );
      const run = spawnSync(process.execPath, ['--import', script.execArgv.at(-1) as string, file], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.stdout.trim()).toBe('done');
      expect(run.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the worker entry', () => {
  it('is the built .js next to the bundle when present, else the .ts source through tsx', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-entry-'));
    try {
      writeFileSync(join(dir, 'w.ts'), '');
      const source = resolveWorkerScript(dir, 'w');
      expect(source.file).toBe(join(dir, 'w.ts'));
      expect(source.execArgv).toHaveLength(4);
      expect(source.execArgv[0]).toBe('--import');
      expect(source.execArgv[1]).toMatch(/^file:\/\/.*\/tools\/common\/worker-priority\.mjs$/);
      expect(source.execArgv[2]).toBe('--import');
      expect(source.execArgv[3]).toMatch(/^file:\/\/.*\/tsx\/dist\/loader\.mjs$/);
      writeFileSync(join(dir, 'w.js'), '');
      expect(resolveWorkerScript(dir, 'w')).toEqual({ file: join(dir, 'w.js'), execArgv: [] });
      expect(() => resolveWorkerScript(dir, 'missing')).toThrow(/No worker entry "missing"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
