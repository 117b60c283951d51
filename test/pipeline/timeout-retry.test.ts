/**
 * Rule guarded (docs/architecture.md#run-policies, docs/architecture.md#timeout-and-retry): each
 * attempt has the policy's timeout, after which the call ends as TIMEOUT and the tool's signal
 * aborts; retryable failures are retried after full-jitter backoff, only for retry-safe tools and
 * only as often as the policy says; a tool that is not retry-safe runs at most once per call
 * whatever fails. Driven by a manual clock: nothing here sleeps.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type RunPolicyName,
  type Tool,
  type ToolContext,
  ToolCallError,
  type ToolReturn,
  failure,
} from '../../tools/core';
import { CircuitBreakers, assemblePipeline, runPolicyResolver } from '../../tools/core/pipeline';
import { ToolTraceRecorder } from '../../tools/core/trace';
import { MUTATING, fixtureTool, isSettled, registryOf } from './fixtures';
import { ManualClock } from '../support/manual-clock';

const NEVER = new Promise<never>(() => undefined);

function setup(tools: Tool[], random = () => 0.5) {
  const clock = new ManualClock(0);
  const trace = new ToolTraceRecorder({ now: () => clock.now() });
  const breakers = new CircuitBreakers({ clock, failureThreshold: 100 });
  const executor = assemblePipeline(registryOf(...tools), {
    clock,
    random,
    trace,
    breakers,
    policies: runPolicyResolver(),
  });
  return { clock, trace, breakers, executor };
}

describe('timeouts', () => {
  it('end a hanging attempt as TIMEOUT after the policy time, abort the tool, then retry a safe one', async () => {
    const signals: AbortSignal[] = [];
    const tool = fixtureTool('slow_read', (_, ctx) => {
      signals.push(ctx.signal);
      return NEVER;
    });
    const s = setup([tool]);
    const pending = s.executor.execute({ toolId: 'slow_read', args: { text: 'x' } });
    await s.clock.advanceAsync(29_999);
    expect(await isSettled(pending)).toBe(false);
    await s.clock.advanceAsync(1);
    expect(signals[0]!.aborted).toBe(true);
    expect((signals[0]!.reason as DOMException).name).toBe('TimeoutError');
    expect(signals).toHaveLength(1); // the retry waits for its backoff: 0.5 × 200 ms
    await s.clock.advanceAsync(99);
    expect(signals).toHaveLength(1);
    await s.clock.advanceAsync(1);
    expect(signals).toHaveLength(2);
    await s.clock.advanceAsync(30_000);
    expect(await pending).toEqual({
      ok: false,
      error: {
        code: 'TIMEOUT',
        message: "Tool 'slow_read' did not finish within 30 s (attempt 2 of 2) and was stopped.",
        hint: 'The tool did not finish in time; retry once with a smaller request, or check that the target responds.',
        data: { timeoutMs: 30_000 },
      },
    });
    expect(s.trace.spans().map((sp) => [sp.attempt, sp.backoffMs, sp.outcome, sp.errorSlug, sp.durationMs])).toEqual([
      [1, 0, 'error', 'timeout', 30_000],
      [2, 100, 'error', 'timeout', 30_000],
    ]);
    expect(s.clock.pendingTimers).toBe(0);
  });

  it('hands a tool that reads its signal only after the timeout an already aborted signal', async () => {
    let late: ToolContext | undefined;
    const tool = fixtureTool(
      'lazy_reader',
      (_, ctx) => {
        late = ctx;
        return NEVER;
      },
      { runPolicy: 'mutating', annotations: MUTATING },
    );
    const s = setup([tool]);
    const pending = s.executor.execute({ toolId: 'lazy_reader', args: { text: 'x' } });
    await s.clock.advanceAsync(60_000);
    expect(await pending).toMatchObject({
      ok: false,
      error: { code: 'TIMEOUT', message: "Tool 'lazy_reader' did not finish within 60 s and was stopped." },
    });
    expect(late!.signal.aborted).toBe(true);
    expect(late!.signal).toBe(late!.signal);
  });

  it('ignore what a stopped tool returns or reports later', async () => {
    let finish: ((v: ToolReturn) => void) | undefined;
    let report: ToolContext['progress'] | undefined;
    const progress: number[] = [];
    const tool = fixtureTool(
      'late_tool',
      (_, ctx) => {
        report = ctx.progress;
        return new Promise<ToolReturn>((resolve) => (finish = resolve));
      },
      { runPolicy: 'mutating', annotations: MUTATING },
    );
    const s = setup([tool]);
    const pending = s.executor.execute({
      toolId: 'late_tool',
      args: { text: 'x' },
      onProgress: (u) => progress.push(u.progress),
    });
    report!({ progress: 1 });
    await s.clock.advanceAsync(60_000);
    finish!('too late');
    report!({ progress: 2 });
    expect(await pending).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(progress).toEqual([1]);
    expect(s.trace.spans()).toHaveLength(1);
  });

  it('count towards the circuit breaker', async () => {
    const tool = fixtureTool('hangs', () => NEVER, { runPolicy: 'mutating', annotations: MUTATING });
    const s = setup([tool]);
    const pending = s.executor.execute({ toolId: 'hangs', args: { text: 'x' } });
    await s.clock.advanceAsync(60_000);
    await pending;
    expect(s.breakers.state('hangs')).toMatchObject({
      consecutiveFailures: 1,
      lastError: { code: 'TIMEOUT', slug: 'timeout' },
    });
  });
});

describe('retries', () => {
  it('retry a retry-safe tool after a transient failure and return its success', async () => {
    let runs = 0;
    const tool = fixtureTool('web_fetch', () => (++runs === 1 ? 'Error: connection reset' : 'page'), {
      runPolicy: 'network',
    });
    const s = setup([tool], () => 0.25);
    const pending = s.executor.execute({ toolId: 'web_fetch', args: { text: 'x' } });
    await s.clock.advanceAsync(50);
    expect(await pending).toMatchObject({ ok: true, content: [{ type: 'text', text: 'page' }] });
    expect(s.trace.spans().map((sp) => [sp.attempt, sp.backoffMs, sp.outcome, sp.errorSlug])).toEqual([
      [1, 0, 'error', 'connection-reset'],
      [2, 50, 'success', undefined],
    ]);
  });

  it('use at most the retries of the policy, with backoff windows doubling', async () => {
    let runs = 0;
    const tool = fixtureTool(
      'web_search',
      () => {
        runs++;
        throw new Error('socket hang up');
      },
      { runPolicy: 'network' },
    );
    const s = setup([tool], () => 0.999);
    const pending = s.executor.execute({ toolId: 'web_search', args: { text: 'x' } });
    await s.clock.advanceAsync(10_000);
    expect(await pending).toMatchObject({
      ok: false,
      error: { code: 'EXECUTION_FAILED', message: "Tool 'web_search' failed: socket hang up" },
    });
    expect(runs).toBe(3);
    expect(s.trace.spans().map((sp) => sp.backoffMs)).toEqual([0, 199, 399]);
  });

  it('never retry terminal failures', async () => {
    const terminal = [
      new ToolCallError('PERMISSION_DENIED', 'no'),
      new ToolCallError('INVALID_ARGUMENT', 'bad'),
      new ToolCallError('NOT_FOUND', 'gone'),
      new ToolCallError('UNSUPPORTED', 'nope'),
    ];
    for (const error of terminal) {
      let runs = 0;
      const tool = fixtureTool(
        'web_fetch',
        () => {
          runs++;
          throw error;
        },
        { runPolicy: 'network' },
      );
      const s = setup([tool]);
      const pending = s.executor.execute({ toolId: 'web_fetch', args: { text: 'x' } });
      await s.clock.advanceAsync(10_000);
      expect((await pending).ok).toBe(false);
      expect(runs, error.toolErrorCode).toBe(1);
    }
  });

  it('never retry a failure the tool marks deterministic or not retryable', async () => {
    const marked = [
      new ToolCallError('TIMEOUT', 'past its CPU bound', { data: { deterministic: true } }),
      new ToolCallError('EXECUTION_FAILED', 'the browser was closed; tabs are lost', { data: { retryable: false } }),
    ];
    for (const error of marked) {
      let runs = 0;
      const tool = fixtureTool(
        'web_fetch',
        () => {
          runs++;
          throw error;
        },
        { runPolicy: 'network' },
      );
      const s = setup([tool]);
      const pending = s.executor.execute({ toolId: 'web_fetch', args: { text: 'x' } });
      await s.clock.advanceAsync(10_000);
      expect(await pending).toMatchObject({ ok: false, error: { message: error.message } });
      expect(runs, error.message).toBe(1);
    }
  });

  it('run a tool that is not retry-safe at most once per call, whatever failures are injected', async () => {
    type Fault = 'throw' | 'hang' | 'failed' | 'unknown' | 'error-string' | 'ok';
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Fault>('throw', 'hang', 'failed', 'unknown', 'error-string', 'ok'), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.constantFrom<RunPolicyName | undefined>('quickRead', 'network', 'mutating', 'selfBounded', undefined),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        async (faults, runPolicy, r) => {
          let runs = 0;
          const tool = fixtureTool(
            'app_install',
            (): ToolReturn | Promise<ToolReturn> => {
              const fault = faults[runs++ % faults.length]!;
              if (fault === 'throw') throw new Error('adb: broken pipe');
              if (fault === 'hang') return NEVER;
              if (fault === 'failed') return failure('EXECUTION_FAILED', 'install failed');
              if (fault === 'unknown') return failure('UNKNOWN', 'odd');
              if (fault === 'error-string') return 'Error: disk full';
              return 'installed';
            },
            { annotations: MUTATING, ...(runPolicy ? { runPolicy } : {}) },
          );
          const s = setup([tool], () => r);
          for (let call = 1; call <= 3; call++) {
            const pending = s.executor.execute({ toolId: 'app_install', args: { text: 'app.apk' } });
            await s.clock.advanceAsync(200_000);
            // selfBounded has no timeout: a hang stays pending
            if (faults[(call - 1) % faults.length] === 'hang' && runPolicy === 'selfBounded') continue;
            await pending;
            expect(runs).toBe(call);
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('run a retry-safe tool at most 1 + the policy retries per call', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('quickRead', 'network', 'mutating'),
        fc.constantFrom('throw', 'hang'),
        async (runPolicy, fault) => {
          let runs = 0;
          const tool = fixtureTool(
            'read_thing',
            () => {
              runs++;
              if (fault === 'throw') throw new Error('flaky');
              return NEVER;
            },
            { runPolicy },
          );
          const s = setup([tool]);
          const pending = s.executor.execute({ toolId: 'read_thing', args: { text: 'x' } });
          await s.clock.advanceAsync(1_000_000);
          await pending;
          expect(runs).toBe({ quickRead: 2, network: 3, mutating: 1 }[runPolicy]);
        },
      ),
      { numRuns: 20 },
    );
  });
});
