/**
 * Approval gate (docs/architecture.md#approval-gate): HIGH-risk or destructive tools wait for a
 * person's decision: approve once, approve the tool for the session (any arguments), approve the
 * tool on one target for the session (a device, a folder, a host), or deny with a reason. The
 * person's approval rules (approval-rules.ts) are applied first: a deny refuses without asking
 * (the pipeline asks `refusedByRule` before a tool's precheck reads anything), an allow runs
 * without asking, an ask asks even a tool that would not. The session state machine and the
 * self-gated skip are core's ToolPermissionManager; the wait itself (deadline, progress, the card
 * withdrawn when the caller is gone) is approval-wait.ts, what an approval covers
 * approval-choices.ts, and the record of every decision approval-audit.ts. Tools that ask a
 * person while they run go through `askInTool`, with the same rules, progress, deadline and
 * audit, their run timeout held (person-waits.ts).
 */
import { approvalTargetOf } from '../approval-target';
import type { Disposable } from '../disposable';
import {
  type ApprovalDecider,
  type ApprovalDecision,
  type ApprovalRequest,
  DEFAULT_SELF_GATED,
  ToolPermissionManager,
  needsApproval,
} from '../permission';
import type { ToolFailure } from '../result';
import type { ProgressUpdate, Requester, Tool } from '../tool';
import type { ArgsDigest } from '../trace-span';
import { digestArgs } from '../trace/args-digest';
import { ApprovalAudit, type ApprovalAuditEntry, type ApprovalAuditSink } from './approval-audit';
import { ONCE, inToolSession, offeredAnswer, toolCard } from './approval-choices';
import {
  type Refused,
  deniedBy,
  failedRefusal,
  inToolDecision,
  ruleRefusal,
  timeoutRefusal,
  waitedBy,
} from './approval-refusals';
import { type ApprovalRule, decidingRule, ruleName } from './approval-rules';
import { type WaitTerms, type Waited, waitForPerson } from './approval-wait';
import { cancelledResult } from './cancellation';
import { type Clock, systemClock } from './clock';
import type { PersonWaits } from './person-waits';

export type { ApprovalAuditEntry, ApprovalAuditSink, AuditedDecision } from './approval-audit';
export { sessionWords } from './approval-choices';
export type { Refused } from './approval-refusals';
export { minutesSeconds } from './approval-wait';

export interface ApprovalGateOptions {
  decide: ApprovalDecider;
  /** How long to wait for a decision before denying; default 120 s. */
  timeoutMs?: number;
  clock?: Clock;
  audit?: ApprovalAuditSink;
  selfGatedIds?: ReadonlySet<string>;
  /** The person's approval rules, read at every call (the host keeps them in SQLite). */
  rules?: () => readonly ApprovalRule[];
  /** How often a waiting call tells its caller it still waits; default 10 s. */
  progressIntervalMs?: number;
  /** The running calls, so an in-tool approval holds its call's run timeout. */
  waits?: PersonWaits;
}

export interface ApprovalCheck {
  callId: string;
  sessionId: string;
  /** What will run: the parsed arguments. */
  args: unknown;
  requester: Requester;
  /** The digest the pipeline already computed; made from `args` when absent. */
  argsDigest?: ArgsDigest;
  /** Sent fields the tool does not declare, shown as ignored. */
  ignored?: Readonly<Record<string, unknown>>;
  /** Where the waiting call's progress goes (its MCP progress token). */
  onProgress?: (update: ProgressUpdate) => void;
}

export interface InToolAsk {
  signal?: AbortSignal;
  /** What "approve for this session" covers as the asking tool remembers it; none offered when absent. */
  sessionCovers?: string;
}

export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;
export const DEFAULT_APPROVAL_PROGRESS_MS = 10_000;

const NO_RULES: readonly ApprovalRule[] = [];

export class ApprovalGate {
  /** The session state machine; the host calls `permissions.endSession()` when a session ends. */
  readonly permissions: ToolPermissionManager;
  readonly timeoutMs: number;
  private readonly terms: WaitTerms;
  private readonly audit: ApprovalAudit;
  private readonly rules: () => readonly ApprovalRule[];
  private readonly waits: PersonWaits | undefined;
  /** Calls of self-gated tools a person approved at the tool level, so their own gate does not ask again. */
  private readonly approvedCalls = new Set<string>();

  constructor(options: ApprovalGateOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    const clock = options.clock ?? systemClock;
    this.terms = {
      decide: options.decide,
      clock,
      timeoutMs: this.timeoutMs,
      progressMs: options.progressIntervalMs ?? DEFAULT_APPROVAL_PROGRESS_MS,
    };
    this.audit = new ApprovalAudit(clock, options.audit);
    this.rules = options.rules ?? (() => NO_RULES);
    this.waits = options.waits;
    // The gate asks the person itself (with a timeout and an audit entry) and hands the answer to
    // the state machine through `apply`; the manager's own decider is never consulted.
    this.permissions = new ToolPermissionManager(
      async () => ({ decision: 'deny', reason: 'decisions go through the approval gate' }),
      options.selfGatedIds ?? DEFAULT_SELF_GATED,
    );
  }

  /** Every decision as it is audited. */
  onDecision(listener: (entry: ApprovalAuditEntry) => void): Disposable {
    return this.audit.onDecision(listener);
  }

  /** Whether a call of this tool may have to wait or be refused here: it needs approval, or rules exist. */
  concerns(tool: Tool): boolean {
    return this.gated(tool) || this.rules().length > 0;
  }

  /**
   * The refusal of a call a deny rule covers, audited as the rule's; undefined when no deny rule
   * matches. Needs only the parsed arguments, so it answers before anything reads the target.
   */
  refusedByRule(
    tool: Tool,
    call: Pick<ApprovalCheck, 'callId' | 'sessionId' | 'args' | 'argsDigest'>,
  ): ToolFailure | undefined {
    const rules = this.rules();
    const rule = rules.length > 0 ? decidingRule(rules, tool.id, call.args) : undefined;
    if (rule?.effect !== 'deny') return undefined;
    this.audit.ruled(call, tool.id, rule);
    return ruleRefusal(tool.id, rule);
  }

  /**
   * undefined when the call may run; a refusal (or a cancellation) and who made it otherwise.
   * Answers at once, without a promise, when nobody has to be asked.
   */
  check(tool: Tool, call: ApprovalCheck, signal?: AbortSignal): Refused | undefined | Promise<Refused | undefined> {
    const rules = this.rules();
    const gated = this.gated(tool);
    if (!gated && rules.length === 0) return undefined;
    const rule = rules.length > 0 ? decidingRule(rules, tool.id, call.args) : undefined;
    // The rule stage refused covered calls already; this catches a rule added while a precheck ran.
    if (rule?.effect === 'deny') {
      this.audit.ruled(call, tool.id, rule);
      return { refusal: ruleRefusal(tool.id, rule), decidedBy: 'rule' };
    }
    if (!gated && rule?.effect !== 'ask') return undefined;
    const target = approvalTargetOf(call.args);
    if (rule?.effect !== 'ask' && this.permissions.state(call.sessionId, tool.id, target) !== 'ask') return undefined;
    if (rule?.effect === 'allow') {
      this.audit.ruled(call, tool.id, rule);
      return undefined;
    }
    const request = toolCard(tool, call, target, rule);
    const digest = call.argsDigest ?? digestArgs(call.args);
    return this.ask(request, digest, rule, signal, call.onProgress).then((waited) =>
      this.toolOutcome(tool, request, waited),
    );
  }

  /** Whether a person approved this call of a self-gated tool at the tool level (its own gate need not ask). */
  approvedWithCall(callId: string): boolean {
    return this.approvedCalls.has(callId);
  }

  /** The call ended; nothing is kept of it. */
  forgetCall(callId: string): void {
    this.approvedCalls.delete(callId);
  }

  /**
   * A person's decision about something a running tool is about to do (a command line, a setting,
   * a download): the rules first, then the queue, with the call's run timeout held meanwhile.
   * Never throws; every way the wait can end is a decision (a deny saying why). A deny is told to
   * the running call, so its span says who decided.
   */
  async askInTool(request: ApprovalRequest, options: InToolAsk = {}): Promise<ApprovalDecision> {
    const digest = digestArgs(request.args);
    const call = { callId: request.callId, sessionId: request.sessionId, argsDigest: digest };
    const rules = this.rules();
    const rule = rules.length > 0 ? decidingRule(rules, request.toolId, request.args) : undefined;
    if (rule?.effect === 'deny') {
      this.audit.ruled(call, request.toolId, rule);
      this.waits?.decided(request.callId, 'rule');
      return { decision: 'deny', reason: `the approval rule ${ruleName(rule)} denies it`, decider: 'rule' };
    }
    if (rule?.effect === 'allow') {
      this.audit.ruled(call, request.toolId, rule);
      return { decision: 'approve_once', decider: 'rule' };
    }
    if (rule === undefined && this.approvedCalls.has(request.callId))
      return { decision: 'approve_once', decider: 'ui' };
    const sessionChoice =
      options.sessionCovers !== undefined && rule === undefined ? [inToolSession(request, options.sessionCovers)] : [];
    const asked: ApprovalRequest = {
      ...request,
      choices: [ONCE, ...sessionChoice],
      ...(rule !== undefined ? { rule: ruleName(rule) } : {}),
    };
    const hold = this.waits?.hold(request.callId);
    let waited: Waited;
    try {
      waited = await this.ask(asked, digest, rule, options.signal, hold?.progress);
    } finally {
      hold?.release();
    }
    const decision = inToolDecision(waited);
    if (decision.decision === 'deny') this.waits?.decided(request.callId, waitedBy(waited));
    return decision;
  }

  private gated(tool: Tool): boolean {
    return needsApproval(tool) && !this.permissions.isSelfGated(tool);
  }

  /** Waits for the person and writes the decision down. */
  private async ask(
    request: ApprovalRequest,
    digest: ArgsDigest,
    rule: ApprovalRule | undefined,
    signal: AbortSignal | undefined,
    onProgress: ((update: ProgressUpdate) => void) | undefined,
  ): Promise<Waited> {
    const waited = await waitForPerson(this.terms, request, signal, onProgress);
    this.audit.waited(request, digest, rule, waited);
    return waited;
  }

  private toolOutcome(tool: Tool, request: ApprovalRequest, waited: Waited): Refused | undefined {
    switch (waited.kind) {
      case 'withdrawn':
        return { refusal: cancelledResult(tool.id, 'while waiting for approval'), decidedBy: 'caller-gone' };
      case 'timeout':
        return { refusal: timeoutRefusal(tool.id, waited.waitedMs), decidedBy: 'timeout' };
      case 'failed':
        return { refusal: failedRefusal(tool.id, waited.message), decidedBy: 'approver-failed' };
      case 'decided': {
        const answer = offeredAnswer(request, waited.decision);
        const denied = this.permissions.apply(tool, request.sessionId, answer, request.target);
        if (denied) {
          denied.error.data = { ...denied.error.data, gate: 'approval', decision: 'deny', slug: 'approval-denied' };
          return { refusal: denied, decidedBy: deniedBy(answer.decider) };
        }
        if (this.permissions.isSelfGated(tool)) this.approvedCalls.add(request.callId);
        return undefined;
      }
    }
  }
}
