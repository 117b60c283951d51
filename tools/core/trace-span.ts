/**
 * One ToolTraceSpan per attempt (docs/architecture.md#traces). The args digest describes the
 * arguments (lengths, printable-character counts) without their text, and a failure's text is kept
 * only once cleaned of every run of argument text, so exported diagnostics never carry a secret a
 * user pasted.
 */
import type { DecidedBy } from '../../shared/call-classes';
import type { ToolErrorCode } from './result';

export { DECIDERS, type DecidedBy } from '../../shared/call-classes';

export type SpanOutcome = 'success' | 'error' | 'cancelled';

export interface ArgsDigest {
  /** Per top-level field: its kind and size, never its value. */
  fields: Record<string, { kind: string; length: number; printable?: number }>;
  /** Length of the JSON form of the whole arguments. */
  totalLength: number;
}

export interface TraceSpan {
  spanId: string;
  callId: string;
  /** The call that started this one (batch, shortcut, mcp_call), if nested. */
  parentCallId?: string;
  toolId: string;
  sessionId: string;
  requesterKind: string;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
  startedAt: number;
  /** The run: from start to end less any time spent waiting for a person. */
  durationMs: number;
  /** Time within the span spent waiting for a person (an approval), apart from the run; absent when none. */
  personWaitMs?: number;
  outcome: SpanOutcome;
  errorCode?: ToolErrorCode;
  /** A short stable slug of the error, e.g. `timeout`, `circuit-open`, `device-offline`. */
  errorSlug?: string;
  /**
   * The error's own words, cleaned (cleanErrorText): every run of argument text replaced by a
   * placeholder naming its field, bounded to 1 KB. Present on failed and refused spans.
   */
  errorText?: string;
  /** Who decided the approval that refused this call (the gate, or a running tool's ask); absent when none did. */
  decidedBy?: DecidedBy;
  /** Backoff waited before this attempt, in ms (0 for the first). */
  backoffMs: number;
  argsDigest: ArgsDigest;
}
