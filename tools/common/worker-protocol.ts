/**
 * The messages between the host and a CPU worker. Only plain data crosses the thread boundary:
 * a task is `{ id, kind, input }`, its answer a value or a plain `{ code, message, hint, data }`,
 * so an error thrown in the worker comes back with the same code it would have on the main thread.
 * Between the two the worker says `started` once the task's module is loaded, and the task's
 * bound counts from there: loading our own code (mathjs takes a third of a second) is not the
 * caller's computation.
 */
import { type ToolErrorCode, isToolCallError } from '../core/result';

export interface TaskMessage {
  id: number;
  kind: string;
  input: unknown;
}

export interface PlainTaskError {
  code: ToolErrorCode;
  message: string;
  hint?: string;
  data?: Record<string, unknown>;
}

export type AnswerMessage = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: PlainTaskError };

export interface StartedMessage {
  id: number;
  started: true;
}

/** Sent once by a worker when it can take tasks; a task is never posted before it. */
export interface ReadyMessage {
  ready: true;
  kinds: string[];
}

/** A task implementation: plain data in, plain data out; it may throw a ToolCallError. */
export type CpuTask = (input: never) => unknown;

/** Task types by name, e.g. `{ 'regex.extract': typeof extractTask }`. */
export type CpuTaskTable<Table> = { readonly [K in keyof Table]: CpuTask };

/**
 * How a worker gets each task: loaded on its first use in each thread, so a thread replaced
 * after a kill is ready in milliseconds and loads only what its next task needs.
 */
export type CpuTaskLoaders<Table extends CpuTaskTable<Table> = Record<string, CpuTask>> = {
  readonly [K in keyof Table]: () => Promise<Table[K]>;
};

/** Any thrown value as plain data: a ToolCallError keeps its code, anything else is EXECUTION_FAILED. */
export function toPlainError(e: unknown): PlainTaskError {
  if (isToolCallError(e)) {
    return {
      code: e.toolErrorCode,
      message: e.message,
      ...(e.hint ? { hint: e.hint } : {}),
      ...(e.data ? { data: e.data } : {}),
    };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'EXECUTION_FAILED', message: `The computation failed: ${message}` };
}

export function isReadyMessage(m: unknown): m is ReadyMessage {
  return typeof m === 'object' && m !== null && (m as { ready?: unknown }).ready === true;
}

export function isStartedMessage(m: unknown): m is StartedMessage {
  return typeof m === 'object' && m !== null && (m as { started?: unknown }).started === true;
}

export function isAnswerMessage(m: unknown): m is AnswerMessage {
  return typeof m === 'object' && m !== null && typeof (m as { id?: unknown }).id === 'number' && 'ok' in m;
}
