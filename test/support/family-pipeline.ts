/**
 * The pipeline a family test runs its tools through: the one `startHost` builds, made by the same
 * function (`composeHostPipeline`, tools/host/compose-pipeline.ts: environment gate on the host's
 * telemetry, schema validation with the ignored-field and near-name checks, approval gate with its
 * default deadline, circuit breaker with its default thresholds, the real run policies with their
 * timeouts and retries, spans), with what a family test does not study turned off by name
 * (`NOT_STUDIED`). A family's tests thus meet the gates, breaker and retry its tools live behind in
 * production. What the test stands in for is the person (`decide`) and where decisions are written.
 */
import { ToolRegistry } from '../../tools/core/registry';
import type { ApprovalDecision, ApprovalRequest } from '../../tools/core/permission';
import {
  type ApprovalAuditEntry,
  type Clock,
  type EnvironmentRule,
  type Pipeline,
  type RunPolicyOverrides,
  systemClock,
} from '../../tools/core/pipeline';
import type { ToolResult } from '../../tools/core/result';
import type { Tool, ToolCall } from '../../tools/core/tool';
import { type InToolApprover, inToolApprover } from '../../tools/host/command-approver';
import { composeHostPipeline } from '../../tools/host/compose-pipeline';
import { HostTelemetry } from '../../tools/host/host-telemetry';

/**
 * The parts of the host's pipeline a family test turns off, each with why. Everything else is
 * the host's, with the host's defaults.
 */
export const NOT_STUDIED = {
  /**
   * The per-minute quotas (120 a minute for a quick read, 30 for a network tool): a test makes in
   * seconds the calls an agent spreads over minutes. The limiter has its own tests
   * (test/pipeline/rate-limiter.test.ts).
   */
  rateLimit: false,
} as const;

/** A person who approves every call once; `decide` replaces the answer. */
export const APPROVE_ONCE = (): ApprovalDecision => ({ decision: 'approve_once', decider: 'ui' });

/** A person's answer to a request; `signal` aborts when the request is withdrawn (the caller is gone). */
export type PersonDecides = (
  request: ApprovalRequest,
  signal?: AbortSignal,
) => ApprovalDecision | Promise<ApprovalDecision>;

export interface FamilyPipelineOptions {
  /** The registry the family's tools are in (a new one when absent); tools may be added later. */
  registry?: ToolRegistry;
  tools?: readonly Tool[];
  /** What the person answers each request (tool-level and in-tool); approve once by default. */
  decide?: PersonDecides;
  /** The family's environment rules, as tools/host/families.ts adds them to the host's gate. */
  environmentRules?: readonly EnvironmentRule[];
  /** Values of run policies a test changes (a shorter timeout), as `startHost`'s `runPolicies`. */
  policies?: RunPolicyOverrides;
  clock?: Clock;
}

export interface FamilyPipeline {
  registry: ToolRegistry;
  pipeline: Pipeline;
  /** The host's telemetry the environment gate reads; hand it to a family that writes some (devices). */
  telemetry: HostTelemetry;
  /** Every request a person was asked, tool-level and in-tool, in order. */
  approvals: ApprovalRequest[];
  /** Every decision the approval gate wrote down. */
  audit: ApprovalAuditEntry[];
  /** What the person answers; change it to deny. */
  decide: PersonDecides;
  /** The in-tool approver the host hands families (`approveCommand`, `askPerson`, `approve`). */
  askInTool: InToolApprover;
  /** Adds a family's environment rules to the gate, as the host does once the family exists. */
  addRules(rules: readonly EnvironmentRule[]): void;
  /** One call through the pipeline, as an MCP call enters it. */
  call(toolId: string, args?: unknown, extra?: Partial<Omit<ToolCall, 'toolId' | 'args'>>): Promise<ToolResult>;
}

export function familyPipeline(options: FamilyPipelineOptions = {}): FamilyPipeline {
  const clock = options.clock ?? systemClock;
  const registry = options.registry ?? new ToolRegistry();
  if (options.tools) registry.registerAll([...options.tools]);
  const telemetry = new HostTelemetry(clock);
  const approvals: ApprovalRequest[] = [];
  const audit: ApprovalAuditEntry[] = [];
  const pipeline = composeHostPipeline(registry, {
    ...NOT_STUDIED,
    clock,
    telemetry,
    ...(options.environmentRules ? { environmentRules: options.environmentRules } : {}),
    ...(options.policies ? { policies: options.policies } : {}),
    decide: async (request, signal) => {
      approvals.push(request);
      return fp.decide(request, signal);
    },
    audit: { record: (entry) => audit.push(entry) },
  });
  const fp: FamilyPipeline = {
    registry,
    pipeline,
    telemetry,
    approvals,
    audit,
    decide: options.decide ?? APPROVE_ONCE,
    askInTool: inToolApprover(pipeline.approval),
    addRules(rules) {
      for (const rule of rules) pipeline.environment?.addRule(rule);
    },
    call: (toolId, args = {}, extra = {}) => pipeline.executor.execute({ toolId, args, ...extra }),
  };
  return fp;
}
