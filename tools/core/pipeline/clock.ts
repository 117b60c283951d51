/**
 * Time and randomness are injected (p-timeout's customTimers, cockatiel's fake-timer tests), so
 * breaker cooldowns, token refill, timeouts and jitter are tested without sleeping.
 */

/** Whatever a clock's setTimeout returns; only handed back to its clearTimeout. */
export type TimerHandle = unknown;

export interface Clock {
  /** Milliseconds since the epoch, with sub-millisecond precision where available. */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** A number in [0, 1), like Math.random. */
export type RandomSource = () => number;

/** Node refuses delays above this and fires at once instead. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const ORIGIN = performance.timeOrigin;

export const systemClock: Clock = {
  // Monotonic within the process, yet comparable with Date.now() across a restart.
  now: () => ORIGIN + performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, Math.min(Math.max(0, ms), MAX_TIMER_MS)),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Resolves true after `ms`, or false as soon as `signal` aborts (the timer is then cleared and
 * the listener removed, so an abandoned sleep leaves nothing behind).
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clock.clearTimeout(timer);
      resolve(false);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
