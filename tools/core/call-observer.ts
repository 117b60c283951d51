/**
 * Who may watch calls enter and end, outside the pipeline: the host keeps recent calls' arguments
 * in memory (never on disk) so a person can replay a call. Calls enter at the host's doors (the
 * MCP endpoint, the UI's API: `observedExecutor`) and as the steps of batches and shortcuts
 * (`invokeObserved`), which reach the pipeline through `ctx.invoke`.
 */
import { newCallId } from './call-ids';
import type { ToolExecutor } from './executor';
import type { ToolResult } from './result';
import type { ToolCall, ToolContext } from './tool';

export interface CallObserver {
  /** A call with its id, before the pipeline sees it. Must not throw or block. */
  started(call: ToolCall & { callId: string }): void;
  ended(callId: string, result: ToolResult): void;
}

function notify(observer: CallObserver, call: ToolCall & { callId: string }): void {
  try {
    observer.started(call);
  } catch {
    // Watching a call never stops it.
  }
}

function watch(observer: CallObserver, callId: string, running: Promise<ToolResult>): void {
  running.then(
    (result) => {
      try {
        observer.ended(callId, result);
      } catch {
        // as above
      }
    },
    () => undefined,
  );
}

/** The executor with every call it runs seen by `observer`; a call without an id gets one here. */
export function observedExecutor(inner: ToolExecutor, observer: CallObserver): ToolExecutor {
  return {
    execute(call) {
      const withId = { ...call, callId: call.callId ?? newCallId() };
      notify(observer, withId);
      const running = inner.execute(withId);
      watch(observer, withId.callId, running);
      return running;
    },
  };
}

/** A nested call through `ctx.invoke`, seen by `observer` when there is one. */
export function invokeObserved(
  ctx: Pick<ToolContext, 'invoke'>,
  call: ToolCall,
  observer: CallObserver | undefined,
): Promise<ToolResult> {
  if (observer === undefined) return ctx.invoke(call);
  const withId = { ...call, callId: call.callId ?? newCallId() };
  notify(observer, withId);
  const running = ctx.invoke(withId);
  watch(observer, withId.callId, running);
  return running;
}
