/**
 * Runs synchronous work on the main thread under a wall-clock bound. Work that never returns
 * control to the event loop cannot be stopped by a timer; V8's script watchdog (`vm` with
 * `timeout`) can, and it interrupts any JavaScript running inside the call, native regex
 * backtracking included. The event loop is still blocked until the bound, so CPU-bound tools
 * compute in the worker pool instead (cpu-pool.ts); this remains for search_files' per-file match.
 */
import vm from 'node:vm';

export const DEFAULT_BOUND_MS = 1000;

/** Thrown when the work did not finish within the bound; the caller turns it into a tool error. */
export class BoundExceeded extends Error {
  constructor(readonly timeoutMs: number) {
    super(`did not finish within ${timeoutMs} ms`);
    this.name = 'BoundExceeded';
  }
}

interface TaskSlot {
  task?: () => void;
}

const slot: TaskSlot = {};
const context = vm.createContext({ slot });
const runner = new vm.Script('slot.task()', { filename: 'toolgate-time-bound' });

function isScriptTimeout(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

/** Runs `task` and returns its value, or throws BoundExceeded after `timeoutMs`. Re-entrant. */
export function runBounded<T>(task: () => T, timeoutMs: number = DEFAULT_BOUND_MS): T {
  const previous = slot.task;
  let value: { v: T } | undefined;
  slot.task = () => {
    value = { v: task() };
  };
  try {
    runner.runInContext(context, { timeout: Math.max(1, Math.floor(timeoutMs)) });
  } catch (e) {
    if (isScriptTimeout(e)) throw new BoundExceeded(timeoutMs);
    throw e;
  } finally {
    slot.task = previous;
  }
  if (!value) throw new Error('bounded task did not run');
  return value.v;
}
