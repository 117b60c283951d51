/**
 * The host's pipeline, composed in one place: `startHost` runs every call through what this builds,
 * and a family's tests run their tools through it too (test/support/family-pipeline.ts), so the two
 * cannot drift apart. Which gates a call meets, in which order, is create-pipeline.ts's; what this
 * adds is the host's choice of parts and values: the environment gate on the host's telemetry, the
 * approval gate asking a person (with the person's rules and a deadline), the per-minute quotas, the
 * breaker with its default thresholds, the run policies, and the spans the UI's live view keeps.
 *
 * A part can be turned off only by name (`rateLimit: false`), which only a test does, for what it
 * does not study.
 */
import type { ApprovalDecider } from '../core/permission';
import {
  type ApprovalAuditSink,
  type ApprovalRule,
  type Clock,
  type EnvironmentRule,
  type Pipeline,
  type RunPolicyOverrides,
  type ToolScope,
  createPipeline,
  systemClock,
} from '../core/pipeline';
import type { ToolRegistry } from '../core/registry';
import type { HostTelemetry } from './host-telemetry';

/** Spans kept in memory for the live views (the span store keeps more, on disk). */
export const HOST_TRACE_CAPACITY = 300;

export interface HostPipelineParts {
  /** What the environment gate judges a call by: what the device family writes, the browser reports. */
  telemetry: HostTelemetry;
  /** Who answers a call that needs a person: the approval queue, or a test's stand-in. */
  decide: ApprovalDecider;
  /** Where each approval decision is written down. */
  audit: ApprovalAuditSink;
  /** How long a call waits for a person; the gate's default (DEFAULT_APPROVAL_TIMEOUT_MS) when absent. */
  approvalTimeoutMs?: number;
  /** The person's standing rules, which approve or deny without asking; none when absent. */
  approvalRules?: () => readonly ApprovalRule[];
  /** How often a call waiting for a person tells its caller so; the gate's default when absent. */
  approvalProgressIntervalMs?: number;
  /** Which tools a session may call (its client's toolsets); every registered tool when absent. */
  scope?: ToolScope;
  /** Rules known when the pipeline is made; families add theirs later (`pipeline.environment.addRule`). */
  environmentRules?: readonly EnvironmentRule[];
  /** Values of run policy presets to change (shorter timeouts in tests). */
  policies?: RunPolicyOverrides;
  /**
   * Per-tool calls a minute overriding the run policies' quotas, or `false` for none at all (a test
   * makes in seconds the calls an agent spreads over minutes).
   */
  rateLimit?: { perMinute: Readonly<Record<string, number>> } | false;
  clock?: Clock;
}

export function composeHostPipeline(registry: ToolRegistry, parts: HostPipelineParts): Pipeline {
  return createPipeline(registry, {
    clock: parts.clock ?? systemClock,
    traceCapacity: HOST_TRACE_CAPACITY,
    ...(parts.scope ? { scope: parts.scope } : {}),
    environment: { telemetry: parts.telemetry, rules: parts.environmentRules ?? [] },
    ...(parts.rateLimit !== undefined ? { rateLimit: parts.rateLimit } : {}),
    ...(parts.policies ? { policies: parts.policies } : {}),
    approval: {
      decide: parts.decide,
      ...(parts.approvalTimeoutMs !== undefined ? { timeoutMs: parts.approvalTimeoutMs } : {}),
      ...(parts.approvalRules ? { rules: parts.approvalRules } : {}),
      ...(parts.approvalProgressIntervalMs ? { progressIntervalMs: parts.approvalProgressIntervalMs } : {}),
      audit: parts.audit,
    },
  });
}
