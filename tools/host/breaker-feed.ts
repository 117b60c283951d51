/**
 * Breaker transitions as the host records and shows them. A breaker is evaluated lazily: it moves
 * from OPEN to HALF_OPEN only when something asks after its cooldown (the next call, or the
 * Breakers page), so the pipeline stamps that move with the moment of asking, which may be minutes
 * after the cooldown ended while the page said "probe in 30 s". From the end of its cooldown on the
 * breaker admits a probe, so that is when it was half-open: the feed stamps the move there, and
 * every later reader (the table, the timeline, the live event) sees one consistent story.
 */
import { type Disposable, Emitter } from '../core/disposable';
import type { BreakerTransition, CircuitBreakers } from '../core/pipeline';

interface OpenPeriod {
  openedAt: number;
  cooldownMs: number;
}

export class BreakerFeed {
  private readonly open = new Map<string, OpenPeriod>();
  private readonly emitter = new Emitter<BreakerTransition>();
  private readonly subscription: Disposable;

  constructor(private readonly breakers: CircuitBreakers) {
    this.note();
    this.subscription = breakers.onTransition((t) => this.emitter.emit(this.stamped(t)));
  }

  on(listener: (t: BreakerTransition) => void): Disposable {
    return this.emitter.on(listener);
  }

  /** Learns the open periods of breakers that are open now (restored at start, or opened since). */
  private note(only?: string): void {
    for (const [key, snap] of Object.entries(this.breakers.snapshot())) {
      if (only !== undefined && key !== only) continue;
      if (snap.state === 'open') this.open.set(key, { openedAt: snap.openedAt, cooldownMs: snap.cooldownMs });
    }
  }

  private stamped(t: BreakerTransition): BreakerTransition {
    if (t.to === 'open') {
      this.note(t.toolId);
      return t;
    }
    const period = this.open.get(t.toolId);
    this.open.delete(t.toolId);
    if (t.from !== 'open' || t.to !== 'half_open' || period === undefined) return t;
    const due = period.openedAt + period.cooldownMs;
    if (due >= t.at) return t;
    return { ...t, at: due, cause: `cooldown of ${Math.round(period.cooldownMs / 1000)} s elapsed` };
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
