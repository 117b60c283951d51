/**
 * EnhancedToolExecutor, the v3 pipeline (docs/architecture.md#the-pipeline), in this order:
 *
 *   environment gate → approval gate → schema validation → rate limiter → circuit breaker
 *     → timeout + retry → tool
 *
 * Every part is optional; built with none of them it gives the same results as v2's
 * DefaultToolExecutor. Every refusal and failure is a ToolResult, never an exception. A call
 * refused before it ran is one trace span with attempt 0; a call that ran is one span per attempt.
 * Usage is recorded once per call (the whole call, as v2 does). Rate limiter and breaker are
 * consulted once per call: retries happen inside the admitted call.
 */
import { newCallId } from '../call-ids';
import { DEFAULT_SESSION, type ToolExecutor, thrownToResult, unknownToolResult } from '../executor';
import type { ToolRegistry } from '../registry';
import type { ToolError, ToolFailure, ToolResult } from '../result';
import type { Requester, Tool, ToolCall } from '../tool';
import type { ArgsDigest, SpanOutcome } from '../trace-span';
import { digestArgs } from '../trace/args-digest';
import { type ArgumentText, argumentTexts } from '../trace/argument-text';
import { errorSlug } from '../trace/error-slug';
import { cleanWith } from '../trace/error-text';
import type { SpanHandle, SpanStart, ToolTraceRecorder } from '../trace/trace-recorder';
import type { ToolUsageTracker } from '../usage-tracker';
import type { ApprovalGate } from './approval-gate';
import { type AttemptCall, runAttempt } from './attempt';
import { cancelledResult, isCancelledResult } from './cancellation';
import { breakerKey } from './breaker-key';
import type { Admission } from './circuit-breaker';
import type { CircuitBreakers } from './circuit-breakers';
import { type Clock, type RandomSource, sleep, systemClock } from './clock';
import type { EnvironmentGate } from './environment-gate';
import type { ToolRateLimiter } from './rate-limiter';
import {
  type BackoffOptions,
  DEFAULT_BACKOFF,
  type RetryClassifier,
  defaultRetryClassifier,
  fullJitterDelay,
  shouldRetry,
} from './retry';
import { type RunPolicy, type RunPolicyResolver, v2Policies } from './run-policy';

export interface EnhancedToolExecutorOptions {
  environment?: EnvironmentGate;
  approval?: ApprovalGate;
  rateLimiter?: ToolRateLimiter;
  breakers?: CircuitBreakers;
  /** Which run policy a tool gets; without it every tool runs as v2 did (no timeout, no retry). */
  policies?: RunPolicyResolver;
  trace?: ToolTraceRecorder;
  usage?: ToolUsageTracker;
  clock?: Clock;
  random?: RandomSource;
  backoff?: Partial<BackoffOptions>;
  classifier?: RetryClassifier;
}

type SpanBase = Omit<SpanStart, 'attempt' | 'backoffMs' | 'startedAt'>;

/** What the stages of one call share. */
interface CallState {
  tool: Tool;
  call: ToolCall;
  callId: string;
  sessionId: string;
  requester: Requester;
  started: number;
  digest: ArgsDigest | undefined;
  span: SpanBase | undefined;
  /** The arguments' texts, collected at the first failure (a success never needs them). */
  texts: ArgumentText[] | undefined;
}

/** How a failure is written down: its cleaned text and its slug, never argument text. */
interface FailureNote {
  errorText: string;
  errorSlug: string;
}

const INTERNAL: Requester = Object.freeze({ kind: 'internal' });

/**
 * The breaker a call belongs to: the tool's, or the tool's on one target when the tool scopes its
 * breaker (a device tool per phone, a network tool per origin), so one dead target does not pause
 * the tool for the others. The target is named by its digest: the scope comes from the arguments.
 */
function breakerKeyOf(tool: Tool, args: unknown): string {
  if (tool.breakerScope === undefined) return tool.id;
  let scope: string | undefined;
  try {
    scope = tool.breakerScope(args);
  } catch {
    scope = undefined;
  }
  return breakerKey(tool.id, scope);
}

export class EnhancedToolExecutor implements ToolExecutor {
  private readonly environment: EnvironmentGate | undefined;
  private readonly approval: ApprovalGate | undefined;
  private readonly rateLimiter: ToolRateLimiter | undefined;
  private readonly breakers: CircuitBreakers | undefined;
  private readonly policies: RunPolicyResolver;
  private readonly trace: ToolTraceRecorder | undefined;
  private readonly usage: ToolUsageTracker | undefined;
  private readonly clock: Clock;
  private readonly random: RandomSource;
  private readonly backoff: BackoffOptions;
  private readonly classifier: RetryClassifier;
  /** Field names each tool declares, so the digest only names those. */
  private readonly declaredFields = new WeakMap<Tool, ReadonlySet<string>>();

  constructor(
    private readonly registry: ToolRegistry,
    options: EnhancedToolExecutorOptions = {},
  ) {
    this.environment = options.environment;
    this.approval = options.approval;
    this.rateLimiter = options.rateLimiter;
    this.breakers = options.breakers;
    this.policies = options.policies ?? v2Policies;
    this.trace = options.trace;
    this.usage = options.usage;
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.classifier = options.classifier ?? defaultRetryClassifier;
  }

  async execute(call: ToolCall): Promise<ToolResult> {
    const lookup = this.registry.lookup(call.toolId);
    if (!lookup.found) return unknownToolResult(call.toolId, lookup.suggestions);
    const tool = lookup.tool;
    const callId = call.callId ?? newCallId();
    const started = this.clock.now();
    let result: ToolResult;
    try {
      result = await this.gateAndRun(this.callState(tool, call, callId, started));
    } catch (e) {
      result = thrownToResult(tool.id, e);
    }
    this.usage?.record(tool.id, this.clock.now() - started, result.ok ? undefined : result.error);
    return result;
  }

  private callState(tool: Tool, call: ToolCall, callId: string, started: number): CallState {
    const sessionId = call.sessionId ?? DEFAULT_SESSION;
    const requester = call.requester ?? INTERNAL;
    const digest = this.trace !== undefined ? this.digest(tool, call.args) : undefined;
    const span: SpanBase | undefined =
      digest !== undefined
        ? {
            callId,
            parentCallId: parentCallOf(requester),
            toolId: tool.id,
            sessionId,
            requesterKind: requester.kind,
            argsDigest: digest,
          }
        : undefined;
    return { tool, call, callId, sessionId, requester, started, digest, span, texts: undefined };
  }

  /**
   * Environment gate → approval gate, then the rest. Not async: most calls need no approval and
   * every stage before the tool is synchronous, so no promise is made for them.
   */
  private gateAndRun(s: CallState): ToolResult | Promise<ToolResult> {
    const environmentRefusal = this.environment?.check(s.tool, s.call.args);
    if (environmentRefusal) return this.refused(environmentRefusal, s);
    if (this.approval?.requiresDecision(s.tool, s.sessionId)) return this.approveThenRun(s, this.approval);
    return this.admitAndRun(s);
  }

  private async approveThenRun(s: CallState, approval: ApprovalGate): Promise<ToolResult> {
    const denied = await approval.check(
      s.tool,
      {
        callId: s.callId,
        sessionId: s.sessionId,
        args: s.call.args,
        requester: s.requester,
        argsDigest: s.digest ?? this.digest(s.tool, s.call.args),
      },
      s.call.signal,
    );
    return denied ? this.refused(denied, s) : this.admitAndRun(s);
  }

  /** Schema validation → rate limiter → circuit breaker, then the attempts. */
  private admitAndRun(s: CallState): ToolResult | Promise<ToolResult> {
    const validated = s.tool.validate(s.call.args);
    if (!validated.ok) return this.refused(validated, s);
    const policy = this.policies(s.tool);
    if (this.rateLimiter !== undefined) {
      const limited = this.rateLimiter.tryTake(s.tool.id, this.rateLimiter.quotaFor(s.tool.id, policy.perMinute));
      if (limited) return this.refused(limited, s);
    }
    const breakerKey = this.breakers !== undefined ? breakerKeyOf(s.tool, validated.value) : s.tool.id;
    const admission: Admission = this.breakers !== undefined ? this.breakers.admit(breakerKey) : 'pass';
    if (admission === 'refused') return this.refused(this.breakers!.refusal(breakerKey), s);
    return this.attempts(s, validated.value, policy, admission, breakerKey);
  }

  /**
   * Timeout + retry: runs attempts until one succeeds, one is terminal, or the policy's retries
   * are spent; then tells the breaker how the admitted call ended.
   */
  private async attempts(
    s: CallState,
    args: unknown,
    policy: RunPolicy,
    admission: Admission,
    breakerKey: string,
  ): Promise<ToolResult> {
    const executor = this;
    const { call, callId, tool } = s;
    let ended = false; // progress from a tool that was stopped must not reach a caller that has its answer
    // Shorthand methods, not arrow properties: no per-call function naming under tsx's keepNames.
    const attemptCall: AttemptCall = {
      tool,
      args,
      callId,
      sessionId: s.sessionId,
      requester: s.requester,
      signal: call.signal,
      progress(update) {
        if (!ended) call.onProgress?.(update);
      },
      invoke(nested) {
        return executor.execute(nestedCall(call, nested, callId));
      },
    };
    const maxAttempts = 1 + policy.maxRetries;
    let backoffMs = 0;
    let result: ToolResult;
    let note: FailureNote | undefined;
    let noted: ToolResult | undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        const handle = s.span !== undefined ? this.trace!.begin(spanStart(s.span, attempt, backoffMs)) : undefined;
        result = await runAttempt(
          attemptCall,
          { timeoutMs: policy.timeoutMs, endOnCancel: policy.endOnCancel, attempt, maxAttempts },
          this.clock,
        );
        note = result.ok ? undefined : this.note(s, result.error);
        noted = result;
        if (handle !== undefined) this.complete(handle, result, call, note);
        if (result.ok || !shouldRetry(tool, result.error, attempt, policy.maxRetries, this.classifier)) break;
        backoffMs = fullJitterDelay(attempt - 1, this.backoff, this.random);
        const waited = backoffMs > 0 ? await sleep(this.clock, backoffMs, call.signal) : !call.signal?.aborted;
        if (!waited) {
          result = cancelledResult(tool.id, 'before its retry');
          break;
        }
      }
    } catch (e) {
      result = thrownToResult(tool.id, e);
    } finally {
      ended = true;
    }
    if (this.breakers !== undefined) {
      if (result.ok) this.breakers.record(breakerKey, admission, undefined);
      else {
        // The last attempt's note, unless the call ended otherwise (cancelled before a retry, a throw).
        const final = note !== undefined && noted === result ? note : this.note(s, result.error);
        this.breakers.record(breakerKey, admission, result.error, final.errorSlug);
      }
    }
    return result;
  }

  /** The failure as it may be written down: cleaned of every run of argument text. */
  private note(s: CallState, error: ToolError): FailureNote {
    s.texts ??= argumentTexts(s.call.args, this.fieldsOf(s.tool));
    return { errorText: cleanWith(error.message, s.texts), errorSlug: errorSlug(error, s.call.args, s.texts) };
  }

  private refused(refusal: ToolFailure, s: CallState): ToolFailure {
    if (s.span !== undefined) {
      const note = this.note(s, refusal.error);
      this.trace!.begin(spanStart(s.span, 0, 0, s.started)).complete({
        outcome: isCancelledResult(refusal) ? 'cancelled' : 'error',
        errorCode: refusal.error.code,
        errorSlug: note.errorSlug,
        errorText: note.errorText,
      });
    }
    return refusal;
  }

  private complete(handle: SpanHandle, result: ToolResult, call: ToolCall, note: FailureNote | undefined): void {
    if (result.ok || note === undefined) {
      handle.complete({ outcome: 'success' });
      return;
    }
    const error: ToolError = result.error;
    // Under selfBounded and v2 a cancelled tool ends however it likes; the caller's signal tells.
    const outcome: SpanOutcome = isCancelledResult(result) || call.signal?.aborted ? 'cancelled' : 'error';
    handle.complete({
      outcome,
      errorCode: error.code,
      errorSlug: outcome === 'cancelled' ? 'cancelled' : note.errorSlug,
      errorText: note.errorText,
    });
  }

  private digest(tool: Tool, args: unknown): ArgsDigest {
    return digestArgs(args, this.fieldsOf(tool));
  }

  private fieldsOf(tool: Tool): ReadonlySet<string> {
    let fields = this.declaredFields.get(tool);
    if (fields === undefined) {
      const properties = (tool.inputSchema as { properties?: unknown }).properties;
      fields = new Set(typeof properties === 'object' && properties !== null ? Object.keys(properties) : []);
      this.declaredFields.set(tool, fields);
    }
    return fields;
  }
}

/** A nested call (ctx.invoke) runs through the same pipeline, in the parent's session, cancelled with it. */
function nestedCall(parent: ToolCall, nested: ToolCall, parentCallId: string): ToolCall {
  const child: ToolCall = {
    sessionId: parent.sessionId,
    ...nested,
    requester: nested.requester ?? { kind: 'internal', id: parentCallId },
  };
  if (child.signal === undefined && parent.signal !== undefined) child.signal = parent.signal;
  return child;
}

/** Spelled out rather than spread: this runs per attempt and a spread copy is slower. */
function spanStart(span: SpanBase, attempt: number, backoffMs: number, startedAt?: number): SpanStart {
  return {
    callId: span.callId,
    parentCallId: span.parentCallId,
    toolId: span.toolId,
    sessionId: span.sessionId,
    requesterKind: span.requesterKind,
    attempt,
    backoffMs,
    argsDigest: span.argsDigest,
    startedAt,
  };
}

/** Batches, shortcuts and nested calls name their parent call in the requester id. */
function parentCallOf(requester: Requester): string | undefined {
  return requester.kind === 'internal' || requester.kind === 'batch' || requester.kind === 'shortcut'
    ? requester.id
    : undefined;
}
