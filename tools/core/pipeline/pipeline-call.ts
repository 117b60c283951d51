/**
 * What the stages of the pipeline share about one call, and the shape of a stage: `(call, next)
 * => result`, as cockatiel's `wrap` composes its policies. A stage may answer itself (a refusal),
 * hand the call on with `next`, or do something around `next` (the breaker records how the call
 * ended, the retry stage calls it once per attempt). The list is composed once
 * (create-pipeline.ts), so a call costs no closures for it.
 */
import type { ToolResult } from '../result';
import type { ToolExecutor } from '../executor';
import type { Requester, Tool, ToolCall } from '../tool';
import type { ArgsDigest, DecidedBy } from '../trace-span';
import type { ArgumentText } from '../trace/argument-text';
import type { SpanStart } from '../trace/trace-recorder';
import type { TimerHandle } from './clock';
import type { RunPolicy } from './run-policy';

/** The span fields that stay the same for every span of a call. */
export type SpanBase = Omit<SpanStart, 'attempt' | 'backoffMs' | 'startedAt'>;

/** How a failure is written down: its cleaned text and its slug, never argument text. */
export interface FailureNote {
  errorText: string;
  errorSlug: string;
}

export interface PipelineCall {
  readonly tool: Tool;
  readonly call: ToolCall;
  readonly callId: string;
  readonly sessionId: string;
  readonly requester: Requester;
  /** The pipeline running the call: nested calls (ctx.invoke) go through it too. */
  readonly pipeline: ToolExecutor;
  readonly policy: RunPolicy;
  /** When the call entered the pipeline (the pipeline's clock). */
  readonly started: number;
  /** The arguments as sent, until the validation stage replaces them with the parsed value. */
  args: unknown;
  /** Sent fields the tool does not declare and never sees, with their values (set by validation). */
  ignored: Readonly<Record<string, unknown>> | undefined;
  /** The digest of the arguments as sent; undefined until the trace or the approval gate needs it. */
  digest: ArgsDigest | undefined;
  /** undefined when the pipeline keeps no trace. */
  span: SpanBase | undefined;
  /** The arguments' texts, collected at the first failure (a success never needs them). */
  texts: ArgumentText[] | undefined;
  /** The attempt running now (1, 2, …); 0 while no attempt has started, so a failure is a refusal. */
  attempt: number;
  /** The last attempt's result and its note, so the breaker writes the same slug the span has. */
  noted: ToolResult | undefined;
  note: FailureNote | undefined;
  /** Set when the call has its answer: progress from a tool still running must not reach the caller. */
  ended: boolean;
  /** Time spent waiting for a person, kept apart from the run (the gate's wait, in-tool approvals). */
  personWaitMs: number;
  /** Of that, the part within the attempt now running (the first includes the gate's wait). */
  attemptWaitMs: number;
  /** The running attempt's timeout, while it has one: a wait for a person holds it. */
  timer: AttemptTimer | undefined;
  /** Who decided the approval that refused the call (the gate's, or one a running tool asked). */
  decidedBy: DecidedBy | undefined;
}

/** An attempt's run timeout, which can be held while a person decides and resumed after. */
export interface AttemptTimer {
  handle: TimerHandle | undefined;
  /** Run time left when held; the deadline's distance when running. */
  remainingMs: number;
  /** When the timer was last (re)started, on the pipeline's clock. */
  since: number;
  fire: () => void;
}

export type Next = (call: PipelineCall) => ToolResult | Promise<ToolResult>;
export type Stage = (call: PipelineCall, next: Next) => ToolResult | Promise<ToolResult>;

const NO_RUNNER: Next = (c) => {
  throw new Error(`the pipeline has no stage that runs '${c.tool.id}'`);
};

/** The stages as one function: the first is entered first, the last runs the tool. */
export function composeStages(stages: readonly Stage[]): Next {
  let next = NO_RUNNER;
  for (let i = stages.length - 1; i >= 0; i--) {
    const stage = stages[i] as Stage;
    const inner = next;
    next = (c) => stage(c, inner);
  }
  return next;
}
