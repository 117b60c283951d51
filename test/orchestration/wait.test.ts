/**
 * Rule (docs/architecture.md#tool-families): wait takes at most 300 s, is cancellable through its
 * signal at any moment, and a wait longer than a few seconds reports progress; the sleep is
 * injected so no test sleeps.
 */
import { describe, expect, it } from 'vitest';
import type { ProgressUpdate } from '../../tools/core/tool';
import type { Sleep } from '../../tools/orchestration';
import { errorOf, makeKit, structuredOf } from './fixtures';

function recordingSleep() {
  const slept: number[] = [];
  const sleep: Sleep = async (ms) => {
    slept.push(ms);
  };
  return { slept, sleep };
}

describe('wait refuses and cancels', () => {
  it('refuses more than 300 s and a negative time, naming the field', async () => {
    const kit = makeKit(recordingSleep());
    expect(errorOf(await kit.run('wait', { seconds: 301 })).data?.fields).toEqual(['seconds']);
    expect(errorOf(await kit.run('wait', { seconds: -1 })).data?.fields).toEqual(['seconds']);
    expect(errorOf(await kit.run('wait', {})).message).toContain('missing required argument "seconds"');
  });

  it('stops at once when its signal aborts (real timers, a 300 s wait)', async () => {
    const kit = makeKit();
    const controller = new AbortController();
    const pending = kit.run('wait', { seconds: 300 }, { signal: controller.signal });
    await new Promise((r) => setImmediate(r));
    controller.abort();
    const error = errorOf(await pending);
    expect(error.code).toBe('EXECUTION_FAILED');
    expect(error.message).toContain('cancelled after 0 of 300 s');
  });

  it('does not start when the signal is already aborted', async () => {
    const { slept, sleep } = recordingSleep();
    const kit = makeKit({ sleep });
    const controller = new AbortController();
    controller.abort();
    expect(errorOf(await kit.run('wait', { seconds: 2 }, { signal: controller.signal })).message).toContain(
      'cancelled',
    );
    expect(slept).toEqual([]);
  });

  it('is cancellable inside a batch whose budget runs out', async () => {
    const kit = makeKit();
    const error = errorOf(
      await kit.run('tool_batch_run', { budgetMs: 20, steps: [{ tool: 'wait', args: { seconds: 300 } }] }),
    );
    expect(error.code).toBe('TIMEOUT');
  });
});

describe('wait waits', () => {
  it('waits a short time in one sleep, without progress', async () => {
    const { slept, sleep } = recordingSleep();
    const kit = makeKit({ sleep });
    const progress: ProgressUpdate[] = [];
    const result = await kit.run(
      'wait',
      { seconds: 2.5, reason: 'animation' },
      { onProgress: (p) => progress.push(p) },
    );
    expect(structuredOf(result)).toEqual({ waitedMs: 2500 });
    expect(result.ok && result.content[0]).toEqual({ type: 'text', text: 'Waited 2.5 s (animation).' });
    expect(slept).toEqual([2500]);
    expect(progress).toEqual([]);
  });

  it('reports progress every second on a longer wait', async () => {
    const { slept, sleep } = recordingSleep();
    const kit = makeKit({ sleep });
    const progress: ProgressUpdate[] = [];
    await kit.run('wait', { seconds: 4.5 }, { onProgress: (p) => progress.push(p) });
    expect(slept).toEqual([1000, 1000, 1000, 1000, 500]);
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [1, 4.5],
      [2, 4.5],
      [3, 4.5],
      [4, 4.5],
      [4.5, 4.5],
    ]);
  });

  it('is a read-only, low-risk tool', () => {
    const tool = makeKit().registry.get('wait');
    expect(tool?.metadata.risk).toBe('LOW');
    expect(tool?.metadata.annotations.readOnlyHint).toBe(true);
  });
});
