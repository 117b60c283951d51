/**
 * One worker thread of the pool and its lifecycle: starting (loading its task modules), idle,
 * busy with exactly one task, or gone. The pool is told when the worker is ready, when it
 * answered, and when it ended for any reason (terminated, crashed, out of memory, failed to load).
 */
import { Worker } from 'node:worker_threads';
import {
  type AnswerMessage,
  type TaskMessage,
  isAnswerMessage,
  isReadyMessage,
  isStartedMessage,
} from './worker-protocol';
import type { WorkerScript } from './worker-script';

export type SlotState = 'starting' | 'idle' | 'busy' | 'gone';

export interface SlotEvents {
  ready(slot: WorkerSlot): void;
  /** The task's module is loaded and its computation begins: its bound counts from here. */
  started(slot: WorkerSlot, taskId: number): void;
  answered(slot: WorkerSlot, answer: AnswerMessage): void;
  /** The thread ended; `why` is model-readable and names no argument. */
  ended(slot: WorkerSlot, why: string, wasReady: boolean): void;
}

function describeEnd(error: Error | undefined, exitCode: number, heapMb: number): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return `it ran out of its ${heapMb} MB memory bound`;
  if (error) return `it crashed (${error.message})`;
  return `it exited with code ${exitCode}`;
}

export class WorkerSlot {
  state: SlotState = 'starting';
  /** The id of the task it is running, when busy. */
  taskId: number | undefined;
  private readonly worker: Worker;
  private error: Error | undefined;
  private stopping = false;

  constructor(script: WorkerScript, heapMb: number, events: SlotEvents) {
    this.worker = new Worker(script.file, {
      execArgv: script.execArgv,
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
    });
    this.worker.on('message', (m: unknown) => {
      if (this.state === 'starting' && isReadyMessage(m)) {
        this.state = 'idle';
        events.ready(this);
      } else if (this.state === 'busy' && isStartedMessage(m) && m.id === this.taskId) {
        events.started(this, m.id);
      } else if (this.state === 'busy' && isAnswerMessage(m) && m.id === this.taskId) {
        this.state = 'idle';
        this.taskId = undefined;
        events.answered(this, m);
      }
    });
    this.worker.on('error', (e) => {
      this.error = e;
    });
    this.worker.on('exit', (exitCode) => {
      const wasReady = this.state !== 'starting';
      this.state = 'gone';
      if (!this.stopping) events.ended(this, describeEnd(this.error, exitCode, heapMb), wasReady);
    });
  }

  run(message: TaskMessage): void {
    this.state = 'busy';
    this.taskId = message.id;
    this.worker.postMessage(message);
  }

  /** Back to idle after a task that never reached the thread. */
  release(): void {
    if (this.state !== 'busy') return;
    this.state = 'idle';
    this.taskId = undefined;
  }

  /** Keeps the process alive only while the pool has work. */
  hold(active: boolean): void {
    if (active) this.worker.ref();
    else this.worker.unref();
  }

  /** Terminates the thread wherever its JavaScript is (a backtracking regex included). */
  stop(): Promise<number> {
    this.stopping = true;
    this.state = 'gone';
    return this.worker.terminate();
  }
}
