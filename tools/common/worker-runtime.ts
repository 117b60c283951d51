/**
 * The worker side of the pool: answers each task message with its task's result. A task runs to
 * completion or until the host terminates the thread; nothing here times it, the host does, from
 * the `started` message on.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import {
  type AnswerMessage,
  type CpuTask,
  type CpuTaskLoaders,
  type ReadyMessage,
  type StartedMessage,
  type TaskMessage,
  toPlainError,
} from './worker-protocol';

function refusal(id: number, kind: string): AnswerMessage {
  return { id, ok: false, error: { code: 'UNSUPPORTED', message: `The CPU worker has no task "${kind}".` } };
}

/**
 * On Linux a thread has its own nice value: /proc/thread-self names this thread's id, and
 * setpriority on it lowers this thread alone, to ten steps below the main thread (process.pid is
 * its id). A busy worker then yields a shared core to the host's event loop at once. Elsewhere the
 * worker keeps the process's priority. A worker run from source is lowered earlier still, by
 * worker-priority.mjs, with the same rule: lowering twice changes nothing.
 */
function yieldToTheHost(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    const target = Math.min(19, getPriority(process.pid) + 10);
    if (Number.isInteger(tid) && tid > 0 && getPriority(tid) < target) setPriority(tid, target);
  } catch {
    // Not Linux, or /proc is not mounted: the scheduler's fair share still applies.
  }
}

/** Serves the tasks on this worker thread's port; call once from a worker entry file. */
export function serveTasks(loaders: CpuTaskLoaders): void {
  const port = parentPort;
  if (port === null) throw new Error('serveTasks runs only inside a worker thread');
  yieldToTheHost();
  const loaded = new Map<string, Promise<CpuTask>>();
  const load = (kind: string): Promise<CpuTask> | undefined => {
    if (!Object.hasOwn(loaders, kind)) return undefined;
    let task = loaded.get(kind);
    if (task === undefined) loaded.set(kind, (task = (loaders[kind] as () => Promise<CpuTask>)()));
    return task;
  };
  const reply = (message: AnswerMessage) => {
    try {
      port.postMessage(message);
    } catch (e) {
      // A value that cannot be cloned (a function, a symbol) is the task's defect, reported as such.
      port.postMessage({ id: message.id, ok: false, error: toPlainError(e) } satisfies AnswerMessage);
    }
  };
  const handle = async ({ id, kind, input }: TaskMessage): Promise<void> => {
    const loading = load(kind);
    if (loading === undefined) return reply(refusal(id, kind));
    let task: CpuTask;
    try {
      task = await loading;
    } catch (e) {
      return reply({ id, ok: false, error: toPlainError(e) });
    }
    port.postMessage({ id, started: true } satisfies StartedMessage);
    try {
      reply({ id, ok: true, value: task(input as never) });
    } catch (e) {
      reply({ id, ok: false, error: toPlainError(e) });
    }
  };
  port.on('message', (message: TaskMessage) => void handle(message));
  port.postMessage({ ready: true, kinds: Object.keys(loaders) } satisfies ReadyMessage);
}
