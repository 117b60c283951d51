/**
 * Rule guarded (docs/architecture.md#rate-limiter, ToolRateLimiter): a token bucket per tool with
 * capacity = per-minute quota and continuous refill; over the limit a call is refused at once
 * (never queued) with RATE_LIMITED saying when a token is back; in no window does it admit more
 * than the capacity plus what refilled during that window.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assemblePipeline, RUN_POLICIES, ToolRateLimiter, runPolicyResolver } from '../../tools/core/pipeline';
import { fixtureTool, isSettled, registryOf } from './fixtures';
import { ManualClock } from '../support/manual-clock';

describe('ToolRateLimiter', () => {
  it('refuses the call over the quota at once, saying in how many seconds a token is back', () => {
    const clock = new ManualClock();
    const limiter = new ToolRateLimiter({ clock });
    for (let i = 0; i < 30; i++) expect(limiter.tryTake('web_fetch', 30)).toBeUndefined();
    expect(limiter.tryTake('web_fetch', 30)).toEqual({
      ok: false,
      error: {
        code: 'RATE_LIMITED',
        message:
          "Rate limit reached for 'web_fetch': at most 30 calls per " +
          'minute. A token is back in 2 s; do not call it before then.',
        hint: 'Too many calls to this tool; wait until a token is back before calling it again.',
        data: { retryAfterMs: 2000, perMinute: 30 },
      },
    });
  });

  it('refills continuously, so a token is back after 60 000 / quota ms and not before', () => {
    const clock = new ManualClock();
    const limiter = new ToolRateLimiter({ clock });
    for (let i = 0; i < 120; i++) limiter.tryTake('calculate', 120);
    clock.advance(499);
    expect(limiter.tryTake('calculate', 120)?.error.data).toEqual({ retryAfterMs: 1, perMinute: 120 });
    clock.advance(1);
    expect(limiter.tryTake('calculate', 120)).toBeUndefined();
    expect(limiter.tryTake('calculate', 120)).toBeDefined();
  });

  it('keeps a separate bucket per tool', () => {
    const limiter = new ToolRateLimiter({ clock: new ManualClock() });
    expect(limiter.tryTake('a', 1)).toBeUndefined();
    expect(limiter.tryTake('a', 1)).toBeDefined();
    expect(limiter.tryTake('b', 1)).toBeUndefined();
  });

  it('does not limit a tool without a quota', () => {
    const limiter = new ToolRateLimiter({ clock: new ManualClock() });
    for (let i = 0; i < 1000; i++) expect(limiter.tryTake('write_file', undefined)).toBeUndefined();
  });

  it('lets a per-tool override win over the policy quota, and the policy over the default', () => {
    const limiter = new ToolRateLimiter({ perMinute: { web_search: 5 }, defaultPerMinute: 60 });
    expect(limiter.quotaFor('web_search', 30)).toBe(5);
    expect(limiter.quotaFor('web_fetch', 30)).toBe(30);
    expect(limiter.quotaFor('write_file', undefined)).toBe(60);
  });

  it('never admits more than the capacity plus the refill in any window', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 1, max: 120_000 }),
        (perMinute, gaps, windowMs) => {
          const clock = new ManualClock(0);
          const limiter = new ToolRateLimiter({ clock });
          const admitted: number[] = [];
          for (const gap of gaps) {
            clock.advance(gap);
            if (limiter.tryTake('t', perMinute) === undefined) admitted.push(clock.now());
          }
          const allowed = perMinute + (perMinute * windowMs) / 60_000 + 1e-9;
          for (let i = 0; i < admitted.length; i++) {
            let inWindow = 0;
            for (let j = i; j < admitted.length && admitted[j]! - admitted[i]! <= windowMs; j++) inWindow++;
            expect(inWindow).toBeLessThanOrEqual(allowed);
          }
          // With no time passing at all, exactly the capacity gets through.
          const burst = new ToolRateLimiter({ clock: new ManualClock(0) });
          let n = 0;
          while (burst.tryTake('t', perMinute) === undefined) n++;
          expect(n).toBe(perMinute);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('rate limiting in the pipeline', () => {
  it('refuses at once rather than queueing, and the tool does not run', async () => {
    const clock = new ManualClock();
    let runs = 0;
    const tool = fixtureTool('web_search', () => `result ${++runs}`, { runPolicy: 'network' });
    const executor = assemblePipeline(registryOf(tool), {
      rateLimiter: new ToolRateLimiter({ clock }),
      policies: runPolicyResolver(),
      clock,
    });
    for (let i = 0; i < RUN_POLICIES.network.perMinute; i++)
      expect((await executor.execute({ toolId: 'web_search', args: { text: 'q' } })).ok).toBe(true);
    const refused = executor.execute({ toolId: 'web_search', args: { text: 'q' } });
    expect(await isSettled(refused)).toBe(true);
    expect(await refused).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED', data: { retryAfterMs: 2000 } } });
    expect(runs).toBe(30);
  });
});
