/**
 * A clock that only moves when told to, for tests of anything that takes a Clock: timers fire in
 * order of their due time as `advance()` passes it, and `advanceAsync()` lets promise chains run
 * between timers so a retry's next timer is scheduled before time moves on.
 */
import type { Clock, TimerHandle } from '../../tools/core/pipeline/clock';

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
}

export class ManualClock implements Clock {
  private current: number;
  private seq = 0;
  private readonly timers = new Map<number, PendingTimer>();

  constructor(start = 1_700_000_000_000) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const seq = ++this.seq;
    this.timers.set(seq, { at: this.current + Math.max(0, ms), seq, fn });
    return seq;
  }

  clearTimeout(handle: TimerHandle): void {
    if (typeof handle === 'number') this.timers.delete(handle);
  }

  /** Timers not yet fired nor cleared. */
  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Moves time forward synchronously, firing due timers in order. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (let timer = this.nextDue(target); timer; timer = this.nextDue(target)) this.fire(timer);
    this.current = target;
  }

  /** Like advance, but lets pending promise callbacks run before and after each timer. */
  async advanceAsync(ms: number): Promise<void> {
    const target = this.current + ms;
    await flushPromises();
    for (let timer = this.nextDue(target); timer; timer = this.nextDue(target)) {
      this.fire(timer);
      await flushPromises();
    }
    this.current = target;
    await flushPromises();
  }

  private nextDue(limit: number): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const t of this.timers.values()) {
      if (t.at <= limit && (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq))) best = t;
    }
    return best;
  }

  private fire(timer: PendingTimer): void {
    this.timers.delete(timer.seq);
    this.current = Math.max(this.current, timer.at);
    timer.fn();
  }
}

/** Lets every queued promise callback (and the ones they queue) run. */
export function flushPromises(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
