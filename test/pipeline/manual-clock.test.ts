/**
 * Rule guarded (style §4, time is injected): the manual clock that drives every timing test fires
 * timers in due order, at their due time, only when advanced; cleared timers never fire; and
 * advanceAsync lets promise chains schedule the next timer before time moves past it.
 */
import { describe, expect, it } from 'vitest';
import { sleep } from '../../tools/core/pipeline';
import { ManualClock } from '../support/manual-clock';

describe('ManualClock', () => {
  it('never fires a cleared timer', () => {
    const clock = new ManualClock(0);
    let fired = false;
    clock.clearTimeout(clock.setTimeout(() => (fired = true), 10));
    clock.advance(100);
    expect(fired).toBe(false);
    expect(clock.pendingTimers).toBe(0);
  });

  it('fires due timers in order of due time, each at its due time', () => {
    const clock = new ManualClock(0);
    const fired: Array<[string, number]> = [];
    clock.setTimeout(() => fired.push(['b', clock.now()]), 20);
    clock.setTimeout(() => fired.push(['a', clock.now()]), 10);
    clock.setTimeout(() => fired.push(['a2', clock.now()]), 10);
    clock.setTimeout(() => fired.push(['late', clock.now()]), 50);
    clock.advance(30);
    expect(fired).toEqual([
      ['a', 10],
      ['a2', 10],
      ['b', 20],
    ]);
    expect(clock.now()).toBe(30);
  });

  it('lets promise chains schedule further timers within one advanceAsync', async () => {
    const clock = new ManualClock(0);
    const steps: number[] = [];
    const chain = (async () => {
      for (let i = 0; i < 3; i++) {
        await sleep(clock, 100);
        steps.push(clock.now());
      }
    })();
    await clock.advanceAsync(300);
    await chain;
    expect(steps).toEqual([100, 200, 300]);
  });

  it('ends a sleep early when its signal aborts, clearing the timer', async () => {
    const clock = new ManualClock(0);
    const controller = new AbortController();
    const slept = sleep(clock, 1_000, controller.signal);
    controller.abort();
    expect(await slept).toBe(false);
    expect(clock.pendingTimers).toBe(0);
    expect(await sleep(clock, 10, controller.signal)).toBe(false);
  });
});
