/**
 * Rule: the breaker timeline the host records tells one consistent story. A breaker moves OPEN →
 * HALF_OPEN lazily, when something asks after its cooldown; the host stamps that move at the
 * cooldown's end (when the "probe in 30 s" the page showed came due), not at the moment of asking,
 * also for a breaker restored open at start. Other transitions pass unchanged.
 */
import { describe, expect, it } from 'vitest';
import { CircuitBreakers } from '../../tools/core/pipeline';
import { ManualClock } from '../support/manual-clock';
import { failure } from '../../tools/core/result';
import { BreakerFeed } from '../../tools/host/breaker-feed';

const boom = failure('EXECUTION_FAILED', 'connect ECONNREFUSED').error;

function openBreaker(breakers: CircuitBreakers, key: string): void {
  for (let i = 0; i < 5; i++) breakers.record(key, breakers.admit(key), boom, 'connect-econnrefused');
}

describe('the breaker feed', () => {
  it('stamps the move to HALF_OPEN at the end of the cooldown, however late the next call came', () => {
    const clock = new ManualClock();
    const breakers = new CircuitBreakers({ clock });
    const feed = new BreakerFeed(breakers);
    const seen: Array<{ from: string; to: string; at: number; cause: string }> = [];
    feed.on((t) => seen.push(t));
    openBreaker(breakers, 'web_fetch@0123abcd');
    const openedAt = clock.now();
    clock.advance(80_000);
    expect(breakers.admit('web_fetch@0123abcd')).toBe('probe');
    breakers.record('web_fetch@0123abcd', 'probe', undefined);
    expect(seen).toEqual([
      {
        toolId: 'web_fetch@0123abcd',
        from: 'closed',
        to: 'open',
        at: openedAt,
        cause: expect.stringContaining('5 consecutive failures'),
      },
      {
        toolId: 'web_fetch@0123abcd',
        from: 'open',
        to: 'half_open',
        at: openedAt + 30_000,
        cause: 'cooldown of 30 s elapsed',
      },
      {
        toolId: 'web_fetch@0123abcd',
        from: 'half_open',
        to: 'closed',
        at: openedAt + 80_000,
        cause: 'probe succeeded',
      },
    ]);
  });

  it('uses the doubled cooldown after a failed probe, and the saved one of a breaker restored open', () => {
    const clock = new ManualClock();
    const first = new CircuitBreakers({ clock });
    openBreaker(first, 'calc');
    clock.advance(31_000);
    first.record('calc', first.admit('calc'), boom, 'boom');
    const reopenedAt = clock.now();
    const saved = first.snapshot();

    clock.advance(5_000);
    const restored = new CircuitBreakers({ clock });
    restored.restore(saved);
    const feed = new BreakerFeed(restored);
    const seen: Array<{ to: string; at: number }> = [];
    feed.on((t) => seen.push({ to: t.to, at: t.at }));
    clock.advance(300_000);
    restored.state('calc');
    expect(seen).toEqual([{ to: 'half_open', at: reopenedAt + 60_000 }]);
  });
});
