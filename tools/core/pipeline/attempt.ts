/**
 * One attempt of a tool run, with the run policy's timeout and the caller's cancellation.
 *
 * The tool's `ctx.signal` is created lazily: an AbortController (and its abort) is paid for only
 * when the tool reads the signal, since most tools never do and the hot path runs millions of
 * calls. When the attempt times out or is cancelled, the signal (if the tool has it) aborts and
 * the attempt ends at once as a result; whatever the tool returns later is ignored.
 */
import { runTool } from '../executor';
import { type ToolFailure, type ToolResult, failure } from '../result';
import type { ProgressUpdate, Requester, Tool, ToolCall, ToolContext } from '../tool';
import { cancelledResult } from './cancellation';
import type { Clock, TimerHandle } from './clock';

/** What stays the same across the attempts of one call. */
export interface AttemptCall {
  tool: Tool;
  args: unknown;
  callId: string;
  sessionId: string;
  requester: Requester;
  signal: AbortSignal | undefined;
  progress: (update: ProgressUpdate) => void;
  invoke: (call: ToolCall) => Promise<ToolResult>;
}

export interface AttemptLimits {
  timeoutMs: number | undefined;
  endOnCancel: boolean;
  attempt: number;
  maxAttempts: number;
}

const NEVER_ABORTED = new AbortController().signal;

export function timeoutResult(toolId: string, timeoutMs: number, attempt: number, maxAttempts: number): ToolFailure {
  const which = maxAttempts > 1 ? ` (attempt ${attempt} of ${maxAttempts})` : '';
  return failure(
    'TIMEOUT',
    `Tool '${toolId}' did not finish within ${formatSeconds(timeoutMs)} s${which} and was stopped.`,
    {
      data: { timeoutMs },
    },
  );
}

export function runAttempt(call: AttemptCall, limits: AttemptLimits, clock: Clock): Promise<ToolResult> {
  const caller = call.signal;
  // Nothing to race: the v2 path, the tool sees the caller's signal as it is.
  if (limits.timeoutMs === undefined && (caller === undefined || !limits.endOnCancel)) {
    return runTool(call.tool, call.args, {
      callId: call.callId,
      sessionId: call.sessionId,
      requester: call.requester,
      signal: caller ?? NEVER_ABORTED,
      progress: call.progress,
      invoke: call.invoke,
    });
  }
  if (caller?.aborted && limits.endOnCancel) return Promise.resolve(cancelledResult(call.tool.id, 'before it ran'));
  return new RunningAttempt(call, limits, clock).start();
}

/**
 * One raced attempt, which is also the tool's context. A class rather than closures and an
 * object literal with a getter: this runs for every call, and V8 builds literals with accessors
 * on a slow path while tsx's keepNames adds a property definition per named closure. It is the
 * caller signal's listener object (handleEvent). `progress` and `invoke` are own properties that
 * do not use `this`, so a tool may destructure them from its context.
 */
class RunningAttempt implements ToolContext, EventListenerObject {
  readonly callId: string;
  readonly sessionId: string;
  readonly requester: Requester;
  readonly progress: (update: ProgressUpdate) => void;
  readonly invoke: (call: ToolCall) => Promise<ToolResult>;
  private controller: AbortController | undefined;
  private stopReason: unknown;
  private stopped = false;
  private settled = false;
  private timer: TimerHandle | undefined;
  private resolve: ((result: ToolResult) => void) | undefined;

  constructor(
    private readonly call: AttemptCall,
    private readonly limits: AttemptLimits,
    private readonly clock: Clock,
  ) {
    this.callId = call.callId;
    this.sessionId = call.sessionId;
    this.requester = call.requester;
    this.progress = call.progress;
    this.invoke = call.invoke;
  }

  /** Created on first read: most tools never look at their signal. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.stopped) this.controller.abort(this.stopReason);
      else if (this.call.signal?.aborted) this.stop(this.call.signal.reason);
    }
    return this.controller.signal;
  }

  start(): Promise<ToolResult> {
    const promise = new Promise<ToolResult>((resolve) => {
      this.resolve = resolve;
    });
    this.call.signal?.addEventListener('abort', this, { once: true });
    if (this.limits.timeoutMs !== undefined)
      this.timer = this.clock.setTimeout(() => this.onTimeout(), this.limits.timeoutMs);
    void runTool(this.call.tool, this.call.args, this).then((result) => this.settle(result));
    return promise;
  }

  /** The caller aborted. */
  handleEvent(): void {
    this.stop(this.call.signal?.reason);
    if (this.limits.endOnCancel) this.settle(cancelledResult(this.call.tool.id, 'while it was running'));
  }

  private onTimeout(): void {
    this.timer = undefined;
    const { timeoutMs, attempt, maxAttempts } = this.limits;
    this.stop(new DOMException(`The tool call timed out after ${timeoutMs} ms`, 'TimeoutError'));
    this.settle(timeoutResult(this.call.tool.id, timeoutMs ?? 0, attempt, maxAttempts));
  }

  private stop(reason: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopReason = reason;
    this.controller?.abort(reason);
  }

  private settle(result: ToolResult): void {
    if (this.settled) return;
    this.settled = true;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.call.signal?.removeEventListener('abort', this);
    this.resolve?.(result);
  }
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? String(s) : s.toFixed(1);
}
