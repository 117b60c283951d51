/**
 * One attempt of the tool, the pipeline's last stage: the run policy's timeout and the caller's
 * cancellation raced against the tool. When the attempt times out or is cancelled, the tool's
 * `ctx.signal` aborts and the attempt ends at once as a result; whatever the tool returns later
 * is ignored. A wait for a person inside the tool (person-waits.ts) holds the timeout.
 */
import { runTool } from '../../executor';
import { type ToolFailure, type ToolResult, failure } from '../../result';
import type { ProgressUpdate, ToolCall, ToolContext } from '../../tool';
import { cancelledResult } from '../cancellation';
import type { Clock, TimerHandle } from '../clock';
import type { AttemptTimer, PipelineCall, Stage } from '../pipeline-call';

const NEVER_ABORTED = new AbortController().signal;

export function timeoutResult(toolId: string, timeoutMs: number, attempt: number, maxAttempts: number): ToolFailure {
  const which = maxAttempts > 1 ? ` (attempt ${attempt} of ${maxAttempts})` : '';
  return failure(
    'TIMEOUT',
    `Tool '${toolId}' did not finish within ${formatSeconds(timeoutMs)} s${which} and was stopped.`,
    { data: { timeoutMs } },
  );
}

/** The tool's view of its call. */
function contextOf(c: PipelineCall, signal: AbortSignal): ToolContext {
  return {
    callId: c.callId,
    sessionId: c.sessionId,
    requester: c.requester,
    signal,
    progress(update: ProgressUpdate) {
      if (!c.ended) c.call.onProgress?.(update);
    },
    invoke(nested: ToolCall) {
      return c.pipeline.execute(nestedCall(c, nested));
    },
  };
}

export function attemptStage(clock: Clock): Stage {
  return (c) => {
    const { timeoutMs, endOnCancel } = c.policy;
    const caller = c.call.signal;
    // Nothing to race (v2, selfBounded): the tool sees the caller's signal as it is.
    if (timeoutMs === undefined && (caller === undefined || !endOnCancel))
      return runTool(c.tool, c.args, contextOf(c, caller ?? NEVER_ABORTED));
    if (caller?.aborted && endOnCancel) return cancelledResult(c.tool.id, 'before it ran');
    return race(c, timeoutMs, endOnCancel, clock);
  };
}

function race(c: PipelineCall, timeoutMs: number | undefined, endOnCancel: boolean, clock: Clock): Promise<ToolResult> {
  return new RacedAttempt(c, timeoutMs, endOnCancel, clock).start();
}

/**
 * One attempt raced against its timeout and the caller's cancellation: the first to finish
 * answers. It is also the attempt's run timer, which a wait for a person holds (person-waits.ts).
 * An object because others hold it: a wait for a person pauses and resumes its timer through the
 * AttemptTimer fields, and its three endings (answer, timeout, cancellation) share its state.
 */
class RacedAttempt implements AttemptTimer {
  handle: TimerHandle | undefined;
  remainingMs: number;
  since = 0;
  readonly fire: () => void;
  private readonly controller = new AbortController();
  private onAbort: (() => void) | undefined;
  private resolve: ((result: ToolResult) => void) | undefined;
  private settled = false;

  constructor(
    private readonly c: PipelineCall,
    private readonly timeoutMs: number | undefined,
    private readonly endOnCancel: boolean,
    private readonly clock: Clock,
  ) {
    this.remainingMs = timeoutMs ?? 0;
    this.fire = () => this.timedOut();
  }

  start(): Promise<ToolResult> {
    const { c, timeoutMs, clock } = this;
    const caller = c.call.signal;
    const answer = new Promise<ToolResult>((resolve) => {
      this.resolve = resolve;
    });
    if (caller?.aborted) this.controller.abort(caller.reason);
    else if (caller !== undefined) {
      this.onAbort = () => this.cancelled();
      caller.addEventListener('abort', this.onAbort, { once: true });
    }
    if (timeoutMs !== undefined) {
      this.since = clock.now();
      this.handle = clock.setTimeout(this.fire, timeoutMs);
      c.timer = this;
    }
    void runTool(c.tool, c.args, contextOf(c, this.controller.signal)).then((result) => this.settle(result));
    return answer;
  }

  private cancelled(): void {
    this.controller.abort(this.c.call.signal?.reason);
    if (this.endOnCancel) this.settle(cancelledResult(this.c.tool.id, 'while it was running'));
  }

  private timedOut(): void {
    const { c, timeoutMs = 0 } = this;
    this.handle = undefined;
    this.controller.abort(new DOMException(`The tool call timed out after ${timeoutMs} ms`, 'TimeoutError'));
    this.settle(timeoutResult(c.tool.id, timeoutMs, c.attempt, 1 + c.policy.maxRetries));
  }

  private settle(result: ToolResult): void {
    if (this.settled) return;
    this.settled = true;
    if (this.handle !== undefined) this.clock.clearTimeout(this.handle);
    this.handle = undefined;
    if (this.c.timer === this) this.c.timer = undefined;
    if (this.onAbort !== undefined) this.c.call.signal?.removeEventListener('abort', this.onAbort);
    this.resolve?.(result);
  }
}

/** A nested call (ctx.invoke) runs through the same pipeline, in the parent's session, cancelled with it. */
function nestedCall(parent: PipelineCall, nested: ToolCall): ToolCall {
  const child: ToolCall = {
    ...nested,
    // Never another session: a step must not escape its caller's toolsets or approvals.
    sessionId: parent.call.sessionId,
    requester: nested.requester ?? { kind: 'internal', id: parent.callId },
  };
  if (child.signal === undefined && parent.call.signal !== undefined) child.signal = parent.call.signal;
  return child;
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? String(s) : s.toFixed(1);
}
