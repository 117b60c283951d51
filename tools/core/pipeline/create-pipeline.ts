/**
 * The pipeline's order, in one place (`assemblePipeline`), and createPipeline: every v3 part wired
 * with defaults, sharing one clock, plus the events a host streams to its UI (spans, breaker
 * transitions, approval decisions).
 *
 * Approval: without a decider, calls that need approval are denied ("no approver is
 * connected"); the safe default for destructive tools. Pass `approval: false` to leave the gate
 * out entirely (tests of tools that are not about approval).
 */
import { type Disposable, toDisposable } from '../disposable';
import type { ApprovalDecider } from '../permission';
import type { ToolRegistry } from '../registry';
import type { TraceSpan } from '../trace-span';
import { DEFAULT_TRACE_CAPACITY, ToolTraceRecorder } from '../trace/trace-recorder';
import { ToolUsageTracker } from '../usage-tracker';
import { type ApprovalAuditEntry, type ApprovalAuditSink, ApprovalGate } from './approval-gate';
import type { ApprovalRule } from './approval-rules';
import { PersonWaits } from './person-waits';
import { BreakerLabels } from './breaker-labels';
import type { BreakerOptions } from './circuit-breaker';
import { type BreakerTransition, CircuitBreakers } from './circuit-breakers';
import { type Clock, type RandomSource, systemClock } from './clock';
import { type EnvironmentRule, type EnvironmentTelemetry, EnvironmentGate, TelemetryStore } from './environment-gate';
import { ToolRateLimiter } from './rate-limiter';
import { type BackoffOptions, DEFAULT_BACKOFF, type RetryClassifier, defaultRetryClassifier } from './retry';
import { type RunPolicyOverrides, type RunPolicyResolver, runPolicyResolver } from './run-policy';
import type { Stage } from './pipeline-call';
import { approvalStage } from './stages/approval-stage';
import { attemptStage } from './stages/attempt-stage';
import { breakerStage } from './stages/breaker-stage';
import { environmentStage } from './stages/environment-stage';
import { rateLimitStage } from './stages/rate-limit-stage';
import { retryStage } from './stages/retry-stage';
import { precheckStage } from './stages/precheck-stage';
import { ruleStage } from './stages/rule-stage';
import { type FieldChecks, validationStage } from './stages/validation-stage';
import { ToolPipeline } from './tool-pipeline';
import type { ToolScope } from './tool-scope';

export interface PipelineOptions {
  /** Which tools a session may reach; without it, every registered tool. */
  scope?: ToolScope;
  clock?: Clock;
  random?: RandomSource;
  environment?: { telemetry?: EnvironmentTelemetry; rules?: readonly EnvironmentRule[]; maxAgeMs?: number } | false;
  approval?:
    | {
        decide?: ApprovalDecider;
        timeoutMs?: number;
        audit?: ApprovalAuditSink;
        selfGatedIds?: ReadonlySet<string>;
        rules?: () => readonly ApprovalRule[];
        /** How often a waiting call tells its caller it still waits; default 10 s. */
        progressIntervalMs?: number;
      }
    | false;
  /** Ignored fields told to the model, near names refused for tools that need approval; on unless false. */
  fields?: Partial<FieldChecks> | false;
  rateLimit?: { perMinute?: Readonly<Record<string, number>>; defaultPerMinute?: number } | false;
  breaker?: (Partial<BreakerOptions> & { timelineLimit?: number }) | false;
  /** Values of presets to change (a host's shorter timeouts); the presets are run-policy.ts's. */
  policies?: RunPolicyOverrides;
  backoff?: Partial<BackoffOptions>;
  classifier?: RetryClassifier;
  /** Spans kept in memory; default 200. */
  traceCapacity?: number;
  usage?: ToolUsageTracker;
}

/** What a host streams to its UI. Every subscription returns a Disposable. */
export interface PipelineEvents {
  onSpan(listener: (span: TraceSpan) => void): Disposable;
  onBreakerTransition(listener: (transition: BreakerTransition) => void): Disposable;
  onApprovalDecision(listener: (entry: ApprovalAuditEntry) => void): Disposable;
}

export interface Pipeline {
  executor: ToolPipeline;
  trace: ToolTraceRecorder;
  usage: ToolUsageTracker;
  /** undefined when turned off with `false`. */
  breakers: CircuitBreakers | undefined;
  /** The targets of per-target breakers, for the person's Breakers page only; in memory, never written. */
  breakerLabels: BreakerLabels | undefined;
  rateLimiter: ToolRateLimiter | undefined;
  approval: ApprovalGate | undefined;
  environment: EnvironmentGate | undefined;
  /** The running calls, held while a person decides something a tool asks about as it runs. */
  waits: PersonWaits;
  /** The store the host writes environment state into (when it did not bring its own telemetry). */
  telemetry: TelemetryStore | undefined;
  events: PipelineEvents;
}

const NO_APPROVER: ApprovalDecider = async () => ({
  decision: 'deny',
  reason: 'no approver is connected to this host',
  decider: 'system',
});
const NOTHING: Disposable = toDisposable(() => undefined);

/** The parts a pipeline is assembled from; each v3 part may be left out. */
export interface PipelineParts {
  /** Which tools a session may reach; without it, every registered tool. */
  scope?: ToolScope;
  environment?: EnvironmentGate;
  approval?: ApprovalGate;
  rateLimiter?: ToolRateLimiter;
  breakers?: CircuitBreakers;
  /** Where the breaker stage notes each per-target breaker's target for the person. */
  breakerLabels?: BreakerLabels;
  /** Which run policy a tool gets; without it every tool runs as under v2 (no timeout, no retry). */
  policies?: RunPolicyResolver;
  trace?: ToolTraceRecorder;
  usage?: ToolUsageTracker;
  clock?: Clock;
  random?: RandomSource;
  backoff?: Partial<BackoffOptions>;
  classifier?: RetryClassifier;
  /** Checks of fields the tool does not declare; none when absent (as v2). */
  fields?: FieldChecks;
  /** The running calls a wait for a person holds (the approval gate's `waits`). */
  waits?: PersonWaits;
}

/**
 * The stages, in the order a call meets them. A part left out is a stage left out; with none of
 * the v3 parts the pipeline gives the v2 executor's results (test/pipeline/v2-equivalence.test.ts).
 * A stage that refuses answers at once and nothing after it runs, so a refused call costs nothing
 * later: bad arguments take no token, and a rate-limited call does not use the breaker's probe.
 */
export function assemblePipeline(registry: ToolRegistry, parts: PipelineParts = {}): ToolPipeline {
  const clock = parts.clock ?? systemClock;
  const stages: Array<Stage | false | undefined> = [
    parts.environment && environmentStage(parts.environment),
    // Before the approval gate, unlike the seed: a person must never be asked about a call that
    // cannot run, nor shown arguments other than those that will run. An invalid call would be
    // approved and then fail, teaching the person that approving means nothing; and the card must
    // show the parsed arguments (defaults in, ignored fields marked) to be what the person approves.
    validationStage(parts.fields),
    // A person's deny rule answers before a precheck reads the target: a call the person ruled
    // out must not learn whether its file exists, and the refusal must be the person's rule.
    parts.approval && ruleStage(parts.approval),
    precheckStage,
    parts.approval && approvalStage(parts.approval, clock),
    parts.rateLimiter && rateLimitStage(parts.rateLimiter),
    parts.breakers && breakerStage(parts.breakers, parts.breakerLabels),
    retryStage({
      clock,
      random: parts.random ?? Math.random,
      backoff: { ...DEFAULT_BACKOFF, ...parts.backoff },
      classifier: parts.classifier ?? defaultRetryClassifier,
      trace: parts.trace,
      waits: parts.waits,
    }),
    attemptStage(clock),
  ];
  return new ToolPipeline(
    registry,
    stages.filter((stage): stage is Stage => typeof stage === 'function'),
    { scope: parts.scope, policies: parts.policies, trace: parts.trace, usage: parts.usage, clock },
  );
}

export function createPipeline(registry: ToolRegistry, options: PipelineOptions = {}): Pipeline {
  const clock = options.clock ?? systemClock;
  const trace = new ToolTraceRecorder({
    capacity: options.traceCapacity ?? DEFAULT_TRACE_CAPACITY,
    now: clock.now.bind(clock),
  });
  const usage = options.usage ?? new ToolUsageTracker(clock.now.bind(clock));

  let telemetry: TelemetryStore | undefined;
  let environment: EnvironmentGate | undefined;
  if (options.environment !== false) {
    const env = options.environment ?? {};
    if (env.telemetry === undefined) telemetry = new TelemetryStore(clock);
    environment = new EnvironmentGate({
      telemetry: env.telemetry ?? telemetry!,
      rules: env.rules,
      maxAgeMs: env.maxAgeMs,
      clock,
    });
  }

  const waits = new PersonWaits(clock, (options.approval || undefined)?.selfGatedIds);
  const approvalOptions = options.approval;
  const approval =
    approvalOptions === false
      ? undefined
      : new ApprovalGate({
          decide: approvalOptions?.decide ?? NO_APPROVER,
          timeoutMs: approvalOptions?.timeoutMs,
          audit: approvalOptions?.audit,
          selfGatedIds: approvalOptions?.selfGatedIds,
          rules: approvalOptions?.rules,
          progressIntervalMs: approvalOptions?.progressIntervalMs,
          waits,
          clock,
        });

  const rateLimiter = options.rateLimit === false ? undefined : new ToolRateLimiter({ ...options.rateLimit, clock });
  const breakers = options.breaker === false ? undefined : new CircuitBreakers({ ...options.breaker, clock });
  const breakerLabels = breakers === undefined ? undefined : new BreakerLabels();

  const executor = assemblePipeline(registry, {
    scope: options.scope,
    environment,
    approval,
    rateLimiter,
    breakers,
    breakerLabels,
    policies: runPolicyResolver(options.policies),
    trace,
    usage,
    clock,
    random: options.random,
    backoff: options.backoff,
    classifier: options.classifier,
    fields: options.fields === false ? undefined : { reportIgnored: true, refuseNearNames: true, ...options.fields },
    waits,
  });

  const events: PipelineEvents = {
    onSpan: (listener) => trace.onSpan(listener),
    onBreakerTransition: (listener) => breakers?.onTransition(listener) ?? NOTHING,
    onApprovalDecision: (listener) => approval?.onDecision(listener) ?? NOTHING,
  };

  return {
    executor,
    trace,
    usage,
    breakers,
    breakerLabels,
    rateLimiter,
    approval,
    environment,
    telemetry,
    waits,
    events,
  };
}
