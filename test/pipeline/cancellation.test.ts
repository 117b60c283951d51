/**
 * Rule guarded (docs/architecture.md#cancellation): when the caller's signal aborts, the running
 * tool's ctx.signal aborts and the call ends at once as a result marked cancelled
 * (EXECUTION_FAILED, data.cancelled), never retried, traced as 'cancelled', with no timer or
 * listener left behind. Under selfBounded (and v2) the tool decides.
 */
import { describe, expect, it } from 'vitest';
import type { RunPolicyName, ToolContext } from '../../tools/core';
import { CircuitBreakers, assemblePipeline, runPolicyResolver } from '../../tools/core/pipeline';
import { ToolTraceRecorder } from '../../tools/core/trace';
import { fixtureTool, registryOf } from './fixtures';
import { ManualClock } from '../support/manual-clock';

const NEVER = new Promise<never>(() => undefined);

function setup(run: (ctx: ToolContext) => Promise<string> | string, runPolicy?: RunPolicyName) {
  const clock = new ManualClock(0);
  const trace = new ToolTraceRecorder({ now: () => clock.now() });
  const breakers = new CircuitBreakers({ clock, failureThreshold: 1 });
  let runs = 0;
  const tool = fixtureTool(
    'web_fetch',
    (_, ctx) => {
      runs++;
      return run(ctx);
    },
    runPolicy ? { runPolicy } : {},
  );
  const executor = assemblePipeline(registryOf(tool), {
    clock,
    trace,
    breakers,
    policies: runPolicyResolver(),
    random: () => 0.5,
  });
  return { clock, trace, breakers, executor, runs: () => runs };
}

describe('cancellation', () => {
  it('ends a running call at once, aborts the tool with the caller reason, and does not retry', async () => {
    let seen: AbortSignal | undefined;
    const s = setup((ctx) => {
      seen = ctx.signal;
      return NEVER;
    });
    const controller = new AbortController();
    const pending = s.executor.execute({ toolId: 'web_fetch', args: { text: 'x' }, signal: controller.signal });
    await s.clock.advanceAsync(10);
    controller.abort('user pressed stop');
    expect(await pending).toEqual({
      ok: false,
      error: {
        code: 'EXECUTION_FAILED',
        message: "The call to 'web_fetch' was cancelled while it was running.",
        hint: 'The caller cancelled this call; do not retry it unless you are asked to.',
        data: { cancelled: true, slug: 'cancelled' },
      },
    });
    expect(seen!.aborted).toBe(true);
    expect(seen!.reason).toBe('user pressed stop');
    expect(s.runs()).toBe(1);
    expect(s.clock.pendingTimers).toBe(0);
    expect(s.trace.spans()).toMatchObject([{ attempt: 1, outcome: 'cancelled', errorSlug: 'cancelled' }]);
    expect(s.breakers.state('web_fetch')).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });

  it('ends a call cancelled during its backoff without another attempt', async () => {
    const s = setup(() => {
      throw new Error('flaky');
    }, 'network');
    const controller = new AbortController();
    const pending = s.executor.execute({ toolId: 'web_fetch', args: { text: 'x' }, signal: controller.signal });
    await s.clock.advanceAsync(50); // backoff is 100 ms
    controller.abort();
    expect(await pending).toMatchObject({
      ok: false,
      error: { message: "The call to 'web_fetch' was cancelled before its retry.", data: { cancelled: true } },
    });
    await s.clock.advanceAsync(10_000);
    expect(s.runs()).toBe(1);
    expect(s.clock.pendingTimers).toBe(0);
  });

  it('does not run the tool when the signal is already aborted', async () => {
    const s = setup(() => 'ran');
    const result = await s.executor.execute({ toolId: 'web_fetch', args: { text: 'x' }, signal: AbortSignal.abort() });
    expect(result).toMatchObject({
      ok: false,
      error: { message: "The call to 'web_fetch' was cancelled before it ran." },
    });
    expect(s.runs()).toBe(0);
  });

  it('removes its abort listener when the call ends normally', async () => {
    const s = setup(() => 'done');
    const controller = new AbortController();
    let added = 0;
    let removed = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = (...a: Parameters<typeof add>) => (added++, add(...a));
    signal.removeEventListener = (...a: Parameters<typeof remove>) => (removed++, remove(...a));
    for (let i = 0; i < 5; i++)
      expect((await s.executor.execute({ toolId: 'web_fetch', args: { text: 'x' }, signal })).ok).toBe(true);
    expect(added).toBe(5);
    expect(removed).toBe(5);
  });

  it('passes the cancellation on to nested calls', async () => {
    const clock = new ManualClock(0);
    let inner: AbortSignal | undefined;
    const child = fixtureTool('child_tool', (_, ctx) => {
      inner = ctx.signal;
      return NEVER;
    });
    const parent = fixtureTool('parent_tool', async (_, ctx) =>
      JSON.stringify(await ctx.invoke({ toolId: 'child_tool', args: { text: 'y' } })),
    );
    const executor = assemblePipeline(registryOf(child, parent), { clock, policies: runPolicyResolver() });
    const controller = new AbortController();
    const pending = executor.execute({ toolId: 'parent_tool', args: { text: 'x' }, signal: controller.signal });
    await clock.advanceAsync(1);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { data: { cancelled: true } } });
    expect(inner!.aborted).toBe(true);
  });

  it('under selfBounded leaves it to the tool, which sees the aborted signal (v2 behaviour)', async () => {
    const s = setup(
      (ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => resolve('Error: stopped by signal'));
        }),
      'selfBounded',
    );
    const controller = new AbortController();
    const pending = s.executor.execute({ toolId: 'web_fetch', args: { text: 'x' }, signal: controller.signal });
    await s.clock.advanceAsync(1);
    expect(s.clock.pendingTimers).toBe(0); // selfBounded: no timeout
    controller.abort();
    expect(await pending).toMatchObject({
      ok: false,
      error: { code: 'EXECUTION_FAILED', message: 'stopped by signal' },
    });
    expect(s.trace.spans()).toMatchObject([{ outcome: 'cancelled' }]);
  });
});
