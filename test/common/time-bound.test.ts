/**
 * Rule: work that must stay on the main thread (search_files' per-file matching) is interrupted
 * at its bound by V8's script watchdog, even when it never yields, and the next task runs normally.
 */
import { describe, expect, it } from 'vitest';
import { BoundExceeded, runBounded } from '../../tools/common/time-bound';

describe('the main-thread time bound', () => {
  it('interrupts synchronous work that never yields, and then runs the next task normally', () => {
    expect(() =>
      runBounded(() => {
        for (;;);
      }, 50),
    ).toThrow(BoundExceeded);
    expect(runBounded(() => 6 * 7, 10_000)).toBe(42);
  });
});
