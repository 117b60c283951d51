/**
 * How a call is written down (docs/architecture.md#traces): the span fields it starts with, the
 * note of a failure (its text cleaned of every run of argument text, and its slug), a refused
 * call's one span with attempt 0, and an attempt's span. Nothing here keeps argument text.
 */
import type { ToolError, ToolResult } from '../result';
import type { Requester, Tool } from '../tool';
import type { ArgsDigest, SpanOutcome } from '../trace-span';
import { digestArgs } from '../trace/args-digest';
import { argumentTexts } from '../trace/argument-text';
import { errorSlug } from '../trace/error-slug';
import { cleanWith } from '../trace/error-text';
import type { SpanHandle, SpanStart, ToolTraceRecorder } from '../trace/trace-recorder';
import { isCancelledResult } from './cancellation';
import type { FailureNote, PipelineCall, SpanBase } from './pipeline-call';

/** Field names each tool declares, so a digest or a placeholder names only those. */
const declaredFields = new WeakMap<Tool, ReadonlySet<string>>();

export function fieldsOf(tool: Tool): ReadonlySet<string> {
  let fields = declaredFields.get(tool);
  if (fields === undefined) {
    const properties = (tool.inputSchema as { properties?: unknown }).properties;
    fields = new Set(typeof properties === 'object' && properties !== null ? Object.keys(properties) : []);
    declaredFields.set(tool, fields);
  }
  return fields;
}

/** The digest of the arguments as sent, made once per call. */
export function digestOf(c: PipelineCall): ArgsDigest {
  c.digest ??= digestArgs(c.call.args, fieldsOf(c.tool));
  return c.digest;
}

export function spanBase(c: PipelineCall): SpanBase {
  return {
    callId: c.callId,
    parentCallId: parentCallOf(c.requester),
    toolId: c.tool.id,
    sessionId: c.sessionId,
    requesterKind: c.requester.kind,
    argsDigest: digestOf(c),
  };
}

export function spanStart(span: SpanBase, attempt: number, backoffMs: number, startedAt?: number): SpanStart {
  return { ...span, attempt, backoffMs, startedAt };
}

/** The failure as it may be written down: cleaned of every run of argument text. */
export function noteOf(c: PipelineCall, error: ToolError): FailureNote {
  c.texts ??= argumentTexts(c.call.args, fieldsOf(c.tool));
  return { errorText: cleanWith(error.message, c.texts), errorSlug: errorSlug(error, c.call.args, c.texts) };
}

/** The note of how the call ended: the last attempt's when that is the answer, else made now. */
export function finalNote(c: PipelineCall, result: ToolResult & { ok: false }): FailureNote {
  return c.note !== undefined && c.noted === result ? c.note : noteOf(c, result.error);
}

/** A call a stage refused before any attempt: one span with attempt 0, from the call's start. */
export function recordRefusal(trace: ToolTraceRecorder, c: PipelineCall, refusal: ToolResult & { ok: false }): void {
  if (c.span === undefined) return;
  const note = noteOf(c, refusal.error);
  trace.begin(spanStart(c.span, 0, 0, c.started)).complete({
    outcome: isCancelledResult(refusal) ? 'cancelled' : 'error',
    errorCode: refusal.error.code,
    errorSlug: note.errorSlug,
    errorText: note.errorText,
    personWaitMs: c.personWaitMs,
    decidedBy: c.decidedBy,
  });
}

export function completeAttempt(handle: SpanHandle, c: PipelineCall, result: ToolResult): void {
  const personWaitMs = c.attemptWaitMs;
  if (result.ok || c.note === undefined) {
    handle.complete({ outcome: 'success', personWaitMs });
    return;
  }
  // Under selfBounded and v2 a cancelled tool ends however it likes; the caller's signal tells.
  const outcome: SpanOutcome = isCancelledResult(result) || c.call.signal?.aborted ? 'cancelled' : 'error';
  handle.complete({
    outcome,
    errorCode: result.error.code,
    errorSlug: outcome === 'cancelled' ? 'cancelled' : c.note.errorSlug,
    errorText: c.note.errorText,
    personWaitMs,
    decidedBy: c.decidedBy,
  });
}

/** Batches, shortcuts and nested calls name their parent call in the requester id. */
function parentCallOf(requester: Requester): string | undefined {
  return requester.kind === 'internal' || requester.kind === 'batch' || requester.kind === 'shortcut'
    ? requester.id
    : undefined;
}
