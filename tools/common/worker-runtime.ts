/**
 * The worker side of the pool: answers each task message with its task's result. A task runs to
 * completion or until the host terminates the thread; nothing here times it, the host does.
 */
import { parentPort } from 'node:worker_threads';
import {
  type AnswerMessage,
  type CpuTaskTable,
  type ReadyMessage,
  type TaskMessage,
  toPlainError,
} from './worker-protocol';

function answer(message: TaskMessage, tasks: CpuTaskTable): AnswerMessage {
  const task = Object.hasOwn(tasks, message.kind) ? tasks[message.kind] : undefined;
  if (task === undefined) {
    return {
      id: message.id,
      ok: false,
      error: { code: 'UNSUPPORTED', message: `The CPU worker has no task "${message.kind}".` },
    };
  }
  try {
    return { id: message.id, ok: true, value: task(message.input as never) };
  } catch (e) {
    return { id: message.id, ok: false, error: toPlainError(e) };
  }
}

/** Serves `tasks` on this worker thread's port; call once from a worker entry file. */
export function serveTasks(tasks: CpuTaskTable): void {
  const port = parentPort;
  if (port === null) throw new Error('serveTasks runs only inside a worker thread');
  port.on('message', (message: TaskMessage) => {
    const reply = answer(message, tasks);
    try {
      port.postMessage(reply);
    } catch (e) {
      // A value that cannot be cloned (a function, a symbol) is the task's defect, reported as such.
      port.postMessage({ id: message.id, ok: false, error: toPlainError(e) } satisfies AnswerMessage);
    }
  });
  port.postMessage({ ready: true, kinds: Object.keys(tasks) } satisfies ReadyMessage);
}
