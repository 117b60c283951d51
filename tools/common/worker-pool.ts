/**
 * A fixed-size pool of worker threads for CPU-bound tool work, so no tool's computation runs on
 * the host's event loop. Each task has a hard bound: when it passes it, its thread is terminated
 * (V8 stops the thread's JavaScript wherever it is, a backtracking regex included) and replaced,
 * and the task ends as a timeout. A cancelled task is stopped the same way. Waiting tasks queue
 * per lane (a tool) with a bound, and a free worker serves the lane with the least running.
 *
 * Written here rather than taken from piscina: piscina is not among the project's dependencies,
 * and adding one needs the lead's approval. What the host needs is this small part: a fixed set
 * of threads, a kill at each task's bound, per-tool lanes, and outcomes as plain values.
 */
import { availableParallelism } from 'node:os';
import { LaneQueue } from './lane-queue';
import type { AnswerMessage, PlainTaskError } from './worker-protocol';
import type { WorkerScript } from './worker-script';
import { WorkerSlot } from './worker-slot';

export interface WorkerPoolOptions {
  script: WorkerScript;
  /** Threads; default `defaultPoolSize()`. */
  size?: number;
  /** Tasks that may wait per lane while every thread computes; one more is refused as busy. Default 32. */
  maxQueuedPerLane?: number;
  /** Old-generation heap of each thread; a task that needs more ends its thread. Default 512 MB. */
  heapMb?: number;
}

export interface PoolTask {
  kind: string;
  input: unknown;
  /** Wall-clock milliseconds the task may compute once a worker has started it (waiting is not counted). */
  boundMs: number;
  /** Fairness group, e.g. the tool id; default the kind. */
  lane?: string;
  signal?: AbortSignal;
}

export type PoolOutcome =
  | { status: 'done'; value: unknown }
  | { status: 'failed'; error: PlainTaskError }
  | { status: 'timeout'; boundMs: number }
  | { status: 'busy'; waiting: number }
  | { status: 'cancelled' }
  | { status: 'crashed'; why: string }
  | { status: 'closed' };

export interface PoolStats {
  threads: number;
  busy: number;
  waiting: number;
  /** Threads started since the pool was created, replacements included. */
  started: number;
  /** Threads seen to have ended (terminated at a bound or a cancel, crashed, or failed to load). */
  exited: number;
}

interface Pending {
  readonly id: number;
  readonly task: PoolTask;
  readonly lane: string;
  readonly resolve: (outcome: PoolOutcome) => void;
  slot: WorkerSlot | undefined;
  timer: NodeJS.Timeout | undefined;
  settled: boolean;
  onAbort: (() => void) | undefined;
}

/**
 * Two threads per core, four at most. Bounds are wall-clock, so a hostile task holds its thread
 * for its whole bound whatever CPU it gets; more threads than cores drain a flood of them sooner,
 * and cannot take the host's core because each runs ten nice steps lower (worker-runtime.ts).
 */
export function defaultPoolSize(): number {
  return Math.min(4, 2 * availableParallelism());
}

export class WorkerPool {
  readonly size: number;
  private readonly heapMb: number;
  private readonly slots = new Set<WorkerSlot>();
  private readonly queue: LaneQueue<Pending>;
  private readonly running = new Map<number, Pending>();
  private nextId = 1;
  private started = 0;
  private exited = 0;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    this.size = Math.max(1, options.size ?? defaultPoolSize());
    this.heapMb = options.heapMb ?? 512;
    this.queue = new LaneQueue(options.maxQueuedPerLane ?? 32);
  }

  run(task: PoolTask): Promise<PoolOutcome> {
    if (this.closed) return Promise.resolve({ status: 'closed' });
    if (task.signal?.aborted) return Promise.resolve({ status: 'cancelled' });
    return new Promise((resolve) => {
      const lane = task.lane ?? task.kind;
      const pending: Pending = {
        id: this.nextId++,
        task,
        lane,
        resolve,
        slot: undefined,
        timer: undefined,
        settled: false,
        onAbort: undefined,
      };
      // Threads not yet computing will take waiting tasks at once, so a burst into a cold pool is
      // not refused while its threads start.
      const room = this.size - this.running.size;
      if (!this.queue.push(lane, pending, room)) return resolve({ status: 'busy', waiting: this.queue.waiting(lane) });
      pending.onAbort = () => this.cancel(pending);
      task.signal?.addEventListener('abort', pending.onAbort, { once: true });
      this.grow();
      this.dispatch();
      this.holdThreads();
    });
  }

  /**
   * Starts one thread ahead of the first task, so that task does not wait for a cold start (a
   * worker loading its modules takes seconds). It does not keep the process alive; a no-op once
   * the pool has a thread or is closed.
   */
  warm(): void {
    if (this.closed || this.slots.size > 0) return;
    this.spawn();
  }

  stats(): PoolStats {
    let busy = 0;
    for (const slot of this.slots) if (slot.state === 'busy') busy += 1;
    return { threads: this.slots.size, busy, waiting: this.queue.size, started: this.started, exited: this.exited };
  }

  /** Ends every task (closed) and terminates every thread. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of [...this.queue.drain(), ...this.running.values()]) this.finish(p, { status: 'closed' });
    const stopping = [...this.slots].map((s) => s.stop());
    this.slots.clear();
    await Promise.all(stopping);
  }

  /** Starts threads while tasks wait for more than the idle and starting ones can take. */
  private grow(): void {
    let free = 0;
    for (const slot of this.slots) if (slot.state === 'idle' || slot.state === 'starting') free += 1;
    while (!this.closed && this.slots.size < this.size && this.queue.size > free) {
      if (!this.spawn()) return;
      free += 1;
    }
  }

  private spawn(): boolean {
    let slot: WorkerSlot;
    try {
      slot = new WorkerSlot(this.options.script, this.heapMb, {
        ready: () => this.dispatch(),
        started: (_s, taskId) => this.startBound(taskId),
        answered: (s, answer) => this.answered(s, answer),
        ended: (s, why, wasReady) => this.ended(s, why, wasReady),
      });
    } catch (e) {
      this.failWaiting(`the CPU worker could not start: ${(e as Error).message}`);
      return false;
    }
    this.started += 1;
    this.slots.add(slot);
    slot.hold(this.queue.size + this.running.size > 0);
    return true;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.state !== 'idle') continue;
      const pending = this.queue.take((lane) => this.runningIn(lane));
      if (pending === undefined) break;
      pending.slot = slot;
      this.running.set(pending.id, pending);
      try {
        slot.run({ id: pending.id, kind: pending.task.kind, input: pending.task.input });
      } catch (e) {
        // The input could not be copied to the thread (not plain data, or nested too deep).
        slot.release();
        this.finish(pending, {
          status: 'failed',
          error: {
            code: 'INVALID_ARGUMENT',
            message: `The input cannot be passed to a worker: ${(e as Error).message}.`,
          },
        });
      }
    }
    this.holdThreads();
  }

  private runningIn(lane: string): number {
    let n = 0;
    for (const pending of this.running.values()) if (pending.lane === lane) n += 1;
    return n;
  }

  private startBound(taskId: number): void {
    const pending = this.running.get(taskId);
    if (pending === undefined || pending.timer !== undefined) return;
    pending.timer = setTimeout(() => this.expire(pending), pending.task.boundMs);
  }

  private answered(slot: WorkerSlot, answer: AnswerMessage): void {
    const pending = this.running.get(answer.id);
    if (pending !== undefined && pending.slot === slot) {
      this.finish(
        pending,
        answer.ok ? { status: 'done', value: answer.value } : { status: 'failed', error: answer.error },
      );
    }
    this.dispatch();
  }

  private ended(slot: WorkerSlot, why: string, wasReady: boolean): void {
    this.exited += 1;
    this.slots.delete(slot);
    for (const pending of this.running.values()) {
      if (pending.slot === slot) this.finish(pending, { status: 'crashed', why });
    }
    if (wasReady) {
      this.replace();
      return;
    }
    // A thread that never became ready will not the next time either: the waiting tasks end now,
    // and the next task tries again, so a broken entry file never spins in a restart loop.
    const anyReady = [...this.slots].some((s) => s.state === 'idle' || s.state === 'busy');
    if (!anyReady) this.failWaiting(`the CPU worker could not start: ${why}`);
  }

  private expire(pending: Pending): void {
    pending.timer = undefined;
    const slot = pending.slot;
    this.finish(pending, { status: 'timeout', boundMs: pending.task.boundMs });
    if (slot !== undefined) this.kill(slot);
  }

  private cancel(pending: Pending): void {
    if (this.queue.remove(pending.lane, pending)) {
      this.finish(pending, { status: 'cancelled' });
      return;
    }
    const slot = pending.slot;
    this.finish(pending, { status: 'cancelled' });
    if (slot !== undefined) this.kill(slot);
  }

  private kill(slot: WorkerSlot): void {
    this.slots.delete(slot);
    // terminate() settles once the thread has stopped running.
    void slot.stop().then(() => {
      this.exited += 1;
    });
    this.replace();
  }

  /** A stopped or crashed thread is replaced at once, so the pool keeps its warm threads. */
  private replace(): void {
    if (this.closed || this.slots.size >= this.size) return;
    this.spawn();
    this.dispatch();
  }

  private failWaiting(why: string): void {
    for (const pending of this.queue.drain()) this.finish(pending, { status: 'crashed', why });
  }

  private finish(pending: Pending, outcome: PoolOutcome): void {
    if (pending.settled) return;
    pending.settled = true;
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    pending.timer = undefined;
    this.running.delete(pending.id);
    if (pending.onAbort) pending.task.signal?.removeEventListener('abort', pending.onAbort);
    pending.resolve(outcome);
    this.holdThreads();
  }

  private holdThreads(): void {
    const active = this.queue.size + this.running.size > 0;
    for (const slot of this.slots) slot.hold(active);
  }
}
