/**
 * Preloaded first in a CPU worker run from source (worker-script.ts): lowers this thread ten nice
 * steps below the host's main thread before tsx and the task modules load, so a thread started to
 * replace one killed at its bound does not compete with the host's event loop while it starts
 * (about 160 ms of CPU under tsx). Plain JavaScript because it runs before the TypeScript loader;
 * worker-runtime.ts applies the same rule to a bundled worker, which has no preload.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  const target = Math.min(19, getPriority(process.pid) + 10);
  if (Number.isInteger(tid) && tid > 0 && getPriority(tid) < target) setPriority(tid, target);
} catch {
  // Not Linux, or /proc is not mounted: the scheduler's fair share still applies.
}
