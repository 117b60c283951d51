/**
 * The host's one pool of CPU workers and the way a tool runs its heavy function on it: the tool
 * stays declarative and validates on the main thread, then hands plain data to a named task of
 * the worker entry (cpu-worker.ts) and gets plain data back. Every way a task can end that is not
 * its value becomes a ToolCallError with a code and a text a model can act on.
 */
import { cancelledResult } from '../core/pipeline/cancellation';
import { ToolCallError } from '../core/result';
import type { CpuTaskTable } from './worker-protocol';
import { type PoolOutcome, WorkerPool } from './worker-pool';
import { resolveWorkerScript } from './worker-script';

let shared: WorkerPool | undefined;

/** The shared pool, started on first use: built `cpu-worker.js` next to the bundle, else the source. */
export function cpuPool(): WorkerPool {
  shared ??= new WorkerPool({ script: resolveWorkerScript(__dirname, 'cpu-worker') });
  return shared;
}

/** Starts the shared pool's first thread in the background (the host does at start). */
export function warmCpuPool(): void {
  cpuPool().warm();
}

/** Terminates the shared pool's threads; the next task starts a new pool. */
export async function closeCpuPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}

export interface CpuCall<Input> {
  /** The tool making the call: its lane in the pool and its name in every message. */
  toolId: string;
  input: Input;
  boundMs: number;
  /** What to change when the bound is hit, completing "… was stopped; …", e.g. "simplify the pattern". */
  whenBound: string;
  /** The longer advice that goes with a timeout. */
  boundHint: string;
  signal?: AbortSignal | undefined;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? String(s) : s.toFixed(1);
}

/**
 * TIMEOUT marked `deterministic`: the same arguments would run past the bound again, so the
 * pipeline neither retries the call nor counts it against the tool's circuit breaker.
 */
function boundExceeded(call: CpuCall<unknown>, boundMs: number): ToolCallError {
  return new ToolCallError(
    'TIMEOUT',
    `${call.toolId} ran past its ${seconds(boundMs)} s bound and was stopped; ${call.whenBound}.`,
    { hint: call.boundHint, data: { boundMs, deterministic: true, reason: 'cpu-bound' } },
  );
}

function toError(call: CpuCall<unknown>, outcome: Exclude<PoolOutcome, { status: 'done' }>): ToolCallError {
  switch (outcome.status) {
    case 'failed': {
      const e = outcome.error;
      return new ToolCallError(e.code, e.message, {
        ...(e.hint ? { hint: e.hint } : {}),
        ...(e.data ? { data: e.data } : {}),
      });
    }
    case 'timeout':
      return boundExceeded(call, outcome.boundMs);
    case 'busy':
      return new ToolCallError(
        'RATE_LIMITED',
        `The host is busy: ${outcome.waiting} ${call.toolId} calls are already waiting for a CPU worker.`,
        { hint: 'Wait for your earlier calls to finish, then retry this one.', data: { waiting: outcome.waiting } },
      );
    case 'cancelled': {
      const { error } = cancelledResult(call.toolId, 'while it was running');
      return new ToolCallError(error.code, error.message, {
        hint: error.hint,
        ...(error.data ? { data: error.data } : {}),
      });
    }
    case 'crashed':
      return new ToolCallError('EXECUTION_FAILED', `The worker running ${call.toolId} stopped: ${outcome.why}.`, {
        hint: 'Retry once with a smaller input; if it stops again, split the input or use another approach.',
      });
    case 'closed':
      return new ToolCallError('EXECUTION_FAILED', `The host is shutting down; ${call.toolId} did not run.`, {
        hint: 'Retry when the host is back.',
      });
  }
}

/** The typed runner of one worker task table: `run('regex.extract', call)` resolves to that task's value. */
export function cpuTasks<Table extends CpuTaskTable<Table>>() {
  return async <K extends keyof Table & string>(
    kind: K,
    call: CpuCall<Parameters<Table[K]>[0]>,
  ): Promise<ReturnType<Table[K]>> => {
    const outcome = await cpuPool().run({
      kind,
      input: call.input,
      boundMs: call.boundMs,
      lane: call.toolId,
      ...(call.signal ? { signal: call.signal } : {}),
    });
    if (outcome.status === 'done') return outcome.value as ReturnType<Table[K]>;
    throw toError(call, outcome);
  };
}
