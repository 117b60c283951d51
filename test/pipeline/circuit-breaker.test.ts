/**
 * Rule guarded (docs/architecture.md#circuit-breaker, ToolCircuitBreaker): CLOSED → N consecutive
 * failures → OPEN → cooldown → HALF_OPEN admits exactly one probe (concurrent calls are refused) →
 * success CLOSED / failure OPEN with the cooldown doubled up to the maximum. Lazy (no timers); only
 * the tool's own failures count; every transition is recorded; the state saves and restores as
 * plain data. A breaker is shared by every session, so it keeps the last error's code and slug,
 * never its message, and a saved snapshot is read back as untrusted input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ToolResult, failure } from '../../tools/core';
import {
  type BreakerTransition,
  CircuitBreakers,
  breakerKey,
  assemblePipeline,
  cancelledResult,
} from '../../tools/core/pipeline';
import { type Deferred, deferred, fixtureTool, registryOf } from './fixtures';
import { ManualClock } from '../support/manual-clock';

const boom = failure('EXECUTION_FAILED', "Tool 'flaky' failed: boom").error;

function breakers(options: ConstructorParameters<typeof CircuitBreakers>[0] = {}) {
  const clock = new ManualClock(0);
  return { clock, b: new CircuitBreakers({ clock, ...options }) };
}

function failTimes(b: CircuitBreakers, n: number, error = boom, slug = 'boom'): void {
  for (let i = 0; i < n; i++) {
    const admission = b.admit('flaky');
    b.record('flaky', admission, error, slug);
  }
}

describe('CircuitBreakers', () => {
  it('refuses once open with the last error\'s code and slug, seconds until the probe, "do not retry now"', () => {
    const { b } = breakers();
    failTimes(b, 5);
    expect(b.admit('flaky')).toBe('refused');
    expect(b.refusal('flaky')).toEqual({
      ok: false,
      error: {
        code: 'CIRCUIT_OPEN',
        message:
          "Tool 'flaky' is paused: it failed 5 times in a row (last error: EXECUTION_FAILED, boom). A probe call " +
          'will be allowed in 30 s; do not retry now.',
        hint: 'This tool has been failing; do not retry it now. Use another approach or wait for the probe.',
        data: {
          state: 'open',
          retryAfterMs: 30_000,
          consecutiveFailures: 5,
          lastErrorCode: 'EXECUTION_FAILED',
          lastErrorSlug: 'boom',
        },
      },
    });
  });

  it('stays closed below the threshold, and a success resets the count', () => {
    const { b } = breakers();
    failTimes(b, 4);
    b.record('flaky', b.admit('flaky'), undefined);
    failTimes(b, 4);
    expect(b.state('flaky')).toMatchObject({ state: 'closed', consecutiveFailures: 4 });
  });

  it("does not count the caller's mistakes nor cancellations", () => {
    const { b } = breakers({ failureThreshold: 2 });
    for (const code of ['INVALID_ARGUMENT', 'PERMISSION_DENIED', 'NOT_FOUND', 'UNSUPPORTED', 'RATE_LIMITED'] as const) {
      failTimes(b, 3, failure(code, 'caller side').error);
    }
    failTimes(b, 3, cancelledResult('flaky', 'while it was running').error);
    expect(b.state('flaky')).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
    failTimes(b, 2, failure('TIMEOUT', 'slow').error);
    expect(b.state('flaky').state).toBe('open');
  });

  it('counts TIMEOUT and UNKNOWN as well as EXECUTION_FAILED', () => {
    const { b } = breakers({ failureThreshold: 3 });
    failTimes(b, 1, failure('TIMEOUT', 'slow').error);
    failTimes(b, 1, failure('UNKNOWN', 'odd').error);
    failTimes(b, 1);
    expect(b.state('flaky').state).toBe('open');
  });

  it('moves to half-open lazily when the cooldown is over, without any timer', () => {
    const { b, clock } = breakers();
    failTimes(b, 5);
    expect(clock.pendingTimers).toBe(0);
    clock.advance(29_999);
    expect(b.state('flaky')).toMatchObject({ state: 'open', cooldownRemainingMs: 1 });
    clock.advance(1);
    expect(b.state('flaky')).toMatchObject({ state: 'half_open', cooldownRemainingMs: 0 });
  });

  it('admits exactly one probe in half-open and refuses the others while it runs', () => {
    const { b, clock } = breakers();
    failTimes(b, 5);
    clock.advance(30_000);
    expect(b.admit('flaky')).toBe('probe');
    expect(b.admit('flaky')).toBe('refused');
    expect(b.refusal('flaky').error.message).toBe(
      "Tool 'flaky' is paused: it failed 5 times in a row (last error: EXECUTION_FAILED, boom). A probe call is " +
        'running now to check whether it has recovered; do not retry now.',
    );
  });

  it('closes after a successful probe and resets the cooldown', () => {
    const { b, clock } = breakers();
    failTimes(b, 5);
    clock.advance(30_000);
    b.record('flaky', b.admit('flaky'), undefined);
    expect(b.state('flaky')).toMatchObject({ state: 'closed', consecutiveFailures: 0, cooldownMs: 30_000 });
    expect(b.admit('flaky')).toBe('pass');
  });

  it('reopens after a failed probe with the cooldown doubled, up to the maximum', () => {
    const { b, clock } = breakers({ cooldownMs: 1_000, maxCooldownMs: 5_000 });
    failTimes(b, 5);
    const cooldowns: number[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(b.state('flaky').cooldownRemainingMs);
      b.record('flaky', b.admit('flaky'), boom, 'boom');
      cooldowns.push(b.state('flaky').cooldownRemainingMs);
    }
    expect(cooldowns).toEqual([2_000, 4_000, 5_000, 5_000, 5_000]);
  });

  it('frees the probe slot when the probe ends for a reason that says nothing about the tool', () => {
    const { b, clock } = breakers();
    failTimes(b, 5);
    clock.advance(30_000);
    b.record('flaky', b.admit('flaky'), cancelledResult('flaky', 'while it was running').error);
    expect(b.state('flaky')).toMatchObject({ state: 'half_open', probeInFlight: false });
    expect(b.admit('flaky')).toBe('probe');
  });

  it('ignores the late result of a call admitted before the circuit opened', () => {
    const { b, clock } = breakers({ failureThreshold: 1 });
    const early = b.admit('flaky');
    failTimes(b, 1);
    b.record('flaky', early, undefined);
    expect(b.state('flaky').state).toBe('open');
    clock.advance(30_000);
    expect(b.admit('flaky')).toBe('probe');
    b.record('flaky', early, undefined);
    expect(b.state('flaky')).toMatchObject({ state: 'half_open', probeInFlight: true });
  });

  it('records every transition with its cause, for the timeline and for listeners', () => {
    const { b, clock } = breakers({ failureThreshold: 2, cooldownMs: 1_000 });
    const heard: BreakerTransition[] = [];
    const sub = b.onTransition((t) => heard.push(t));
    failTimes(b, 2);
    clock.advance(1_000);
    b.record('flaky', b.admit('flaky'), boom, 'boom');
    clock.advance(2_000);
    b.record('flaky', b.admit('flaky'), undefined);
    sub.dispose();
    const timeline = b.timeline('flaky');
    expect(timeline).toEqual([
      { toolId: 'flaky', from: 'closed', to: 'open', at: 0, cause: '2 consecutive failures (last: boom)' },
      { toolId: 'flaky', from: 'open', to: 'half_open', at: 1_000, cause: 'cooldown elapsed' },
      { toolId: 'flaky', from: 'half_open', to: 'open', at: 1_000, cause: 'probe failed (boom)' },
      { toolId: 'flaky', from: 'open', to: 'half_open', at: 3_000, cause: 'cooldown elapsed' },
      { toolId: 'flaky', from: 'half_open', to: 'closed', at: 3_000, cause: 'probe succeeded' },
    ]);
    expect(heard).toEqual(timeline);
    expect(b.state('flaky').lastError).toEqual({ code: 'EXECUTION_FAILED', slug: 'boom', at: 1_000 });
  });

  it('keeps the timeline bounded', () => {
    const { b, clock } = breakers({ failureThreshold: 1, cooldownMs: 10, maxCooldownMs: 10, timelineLimit: 4 });
    failTimes(b, 1);
    for (let i = 0; i < 10; i++) {
      clock.advance(10);
      b.record('flaky', b.admit('flaky'), boom, 'boom');
    }
    expect(b.timeline('flaky')).toHaveLength(4);
  });

  it('saves its state as plain JSON and restores it in a new instance', () => {
    const { b, clock } = breakers();
    failTimes(b, 5);
    clock.advance(10_000);
    const saved = JSON.parse(JSON.stringify(b.snapshot()));
    expect(saved).toEqual({
      flaky: {
        state: 'open',
        openedAt: 0,
        cooldownMs: 30_000,
        consecutiveFailures: 5,
        lastError: { code: 'EXECUTION_FAILED', slug: 'boom', at: 0 },
      },
    });
    const restored = new CircuitBreakers({ clock });
    restored.restore(saved);
    expect(restored.state('flaky')).toMatchObject({
      state: 'open',
      cooldownRemainingMs: 20_000,
      consecutiveFailures: 5,
    });
    expect(restored.timeline('flaky')).toMatchObject([{ from: 'closed', to: 'open', cause: 'restored' }]);
    expect(restored.admit('flaky')).toBe('refused');
  });

  it('can be reset by hand', () => {
    const { b } = breakers();
    failTimes(b, 5);
    b.reset('flaky');
    expect(b.state('flaky')).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
    expect(b.timeline('flaky').at(-1)).toMatchObject({ to: 'closed', cause: 'reset by hand' });
  });

  it("never repeats the failing call's message, which may hold another session's arguments", () => {
    const { b } = breakers();
    const timeout = failure('TIMEOUT', 'No complete response from http://x/slow/hunter2SECRET within 200 ms.').error;
    failTimes(b, 5, timeout, 'timeout');
    const refusal = b.refusal('flaky');
    expect(refusal.error.message).toBe(
      "Tool 'flaky' is paused: it failed 5 times in a row (last error: " +
        'TIMEOUT). A probe call will be allowed in 30 s; do not retry now.',
    );
    expect(JSON.stringify([refusal, b.snapshot(), b.states(), b.timeline('flaky')])).not.toMatch(/hunter2|slow/);
  });

  it('reads an old or tampered snapshot safely: messages dropped, target names digested, bad entries skipped', () => {
    const { b } = breakers();
    b.restore({
      flaky: {
        state: 'open',
        openedAt: 0,
        cooldownMs: 30_000,
        consecutiveFailures: 5,
        lastError: {
          code: 'TIMEOUT',
          message: 'No response from http://x/hunter2SECRET',
          slug: 'hunter2secret',
          at: 0,
        },
        note: 'hunter2SECRET',
      },
      'ui_tap@hunter2SECRET': { state: 'CLOSED', failures: 2 },
      broken: { state: 'open', openedAt: 'yesterday' },
      nonsense: 'hunter2SECRET',
    });
    const saved = b.snapshot();
    expect(saved).toEqual({
      flaky: {
        state: 'open',
        openedAt: 0,
        cooldownMs: 30_000,
        consecutiveFailures: 5,
        lastError: { code: 'TIMEOUT', slug: 'timeout', at: 0 },
      },
      [breakerKey('ui_tap', 'hunter2SECRET')]: { state: 'closed', consecutiveFailures: 2 },
    });
    expect(JSON.stringify(saved)).not.toMatch(/hunter2/i);
  });

  it('creates a breaker only for a counted failure, and keeps a bounded number of them', () => {
    const { b } = breakers({ maxBreakers: 3 });
    for (let i = 0; i < 10; i++) b.record(`ok_${i}`, b.admit(`ok_${i}`), undefined);
    expect(b.states()).toEqual([]);
    for (let i = 0; i < 10; i++) b.record(`t@${i}`, b.admit(`t@${i}`), boom, 'boom');
    expect(b.states().map((v) => v.toolId)).toEqual(['t@7', 't@8', 't@9']);
  });
});

describe('the breaker in the pipeline', () => {
  function flakyPipeline() {
    const clock = new ManualClock(0);
    const pending: Array<Deferred<ToolResult>> = [];
    let runs = 0;
    const tool = fixtureTool('flaky', () => {
      runs++;
      const d = deferred<ToolResult>();
      pending.push(d);
      return d.promise;
    });
    const b = new CircuitBreakers({ clock, failureThreshold: 2, cooldownMs: 1_000 });
    const executor = assemblePipeline(registryOf(tool), { breakers: b, clock });
    return { clock, pending, b, executor, runs: () => runs };
  }

  it('admits exactly one probe in half-open whatever the number of concurrent calls', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 12 }), fc.boolean(), async (concurrent, probeSucceeds) => {
        const s = flakyPipeline();
        for (let i = 0; i < 2; i++) {
          const call = s.executor.execute({ toolId: 'flaky', args: { text: 'x' } });
          await new Promise((r) => setImmediate(r));
          s.pending.shift()!.resolve(failure('EXECUTION_FAILED', 'boom'));
          await call;
        }
        s.clock.advance(1_000);
        const before = s.runs();
        const calls = Array.from({ length: concurrent }, () =>
          s.executor.execute({ toolId: 'flaky', args: { text: 'x' } }),
        );
        await new Promise((r) => setImmediate(r));
        expect(s.runs() - before).toBe(1);
        s.pending
          .shift()!
          .resolve(probeSucceeds ? { ok: true, content: [] } : failure('EXECUTION_FAILED', 'still broken'));
        const results = await Promise.all(calls);
        expect(results.filter((r) => !r.ok && r.error.code === 'CIRCUIT_OPEN')).toHaveLength(concurrent - 1);
        expect(s.b.state('flaky').state).toBe(probeSucceeds ? 'closed' : 'open');
      }),
      { numRuns: 60 },
    );
  });

  it('does not run the tool while the circuit is open', async () => {
    const s = flakyPipeline();
    for (let i = 0; i < 2; i++) {
      const call = s.executor.execute({ toolId: 'flaky', args: { text: 'x' } });
      await new Promise((r) => setImmediate(r));
      s.pending.shift()!.resolve(failure('EXECUTION_FAILED', 'boom'));
      await call;
    }
    const refused = await s.executor.execute({ toolId: 'flaky', args: { text: 'x' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'CIRCUIT_OPEN' } });
    expect(s.runs()).toBe(2);
  });
});
