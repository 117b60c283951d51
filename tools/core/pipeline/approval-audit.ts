/**
 * The record of every approval decision: who (a person, a rule, the system), what (an arguments
 * digest, never the arguments), the scope an approval covers, the rule that made it and how long
 * the call waited. Written to the host's sink (its SQLite audit table) and streamed to the UI.
 */
import type { ApprovalAnswer, ApprovalRequest } from '../permission';
import { type Disposable, Emitter } from '../disposable';
import type { ArgsDigest } from '../trace-span';
import { digestArgs } from '../trace/args-digest';
import { coverOf } from './approval-choices';
import { type ApprovalRule, ruleName } from './approval-rules';
import type { Waited } from './approval-wait';
import type { Clock } from './clock';

export type AuditedDecision = ApprovalAnswer | 'deny' | 'timeout' | 'withdrawn' | 'allow';

export interface ApprovalAuditEntry {
  at: number;
  callId: string;
  sessionId: string;
  toolId: string;
  argsDigest: ArgsDigest;
  decision: AuditedDecision;
  reason?: string;
  /** Who decided: `ui` (a person), `rule`, `system`. */
  decider?: string;
  /** What an approval covers: "this call only", "app_uninstall with any arguments, for …". */
  scope?: string;
  /** The rule that decided, as `#3 deny app_uninstall packageName=com.android.*`. */
  rule?: string;
  /** How long the call waited for a person, in ms; absent when nobody was asked. */
  waitedMs?: number;
}

/** Where every decision is written (the host's SQLite audit table, a file, a test array). */
export interface ApprovalAuditSink {
  record(entry: ApprovalAuditEntry): void;
}

/** The call a decision is about; its digest is made from `args` when the caller has none. */
export interface AuditedCall {
  callId: string;
  sessionId: string;
  argsDigest?: ArgsDigest | undefined;
  args?: unknown;
}

export type AuditedWhat = Omit<ApprovalAuditEntry, 'at' | 'callId' | 'sessionId' | 'toolId' | 'argsDigest'>;

export class ApprovalAudit {
  private readonly decisions = new Emitter<ApprovalAuditEntry>();

  constructor(
    private readonly clock: Clock,
    private readonly sink: ApprovalAuditSink | undefined,
  ) {}

  /** Every decision as it is audited. */
  onDecision(listener: (entry: ApprovalAuditEntry) => void): Disposable {
    return this.decisions.on(listener);
  }

  /** A rule decided without anyone being asked. */
  ruled(call: AuditedCall, toolId: string, rule: ApprovalRule): void {
    const what: AuditedWhat =
      rule.effect === 'deny'
        ? { decision: 'deny', decider: 'rule', rule: ruleName(rule) }
        : { decision: 'allow', decider: 'rule', rule: ruleName(rule), scope: 'this call only' };
    this.record(call, toolId, what);
  }

  /** How a wait for a person ended: their answer, no answer, the caller gone, or the approver failing. */
  waited(request: ApprovalRequest, digest: ArgsDigest, rule: ApprovalRule | undefined, waited: Waited): void {
    const call = { callId: request.callId, sessionId: request.sessionId, argsDigest: digest };
    const ruled = rule !== undefined ? { rule: ruleName(rule) } : {};
    const waitedMs = waited.waitedMs;
    if (waited.kind === 'decided') {
      const d = waited.decision;
      const scope = d.decision === 'deny' ? undefined : coverOf(request, d.decision);
      this.record(call, request.toolId, {
        decision: d.decision,
        ...(d.decision === 'deny' && d.reason?.trim() ? { reason: d.reason.trim() } : {}),
        ...(d.decider !== undefined ? { decider: d.decider } : {}),
        ...(scope !== undefined ? { scope } : {}),
        ...ruled,
        waitedMs,
      });
      return;
    }
    const unanswered: Record<Exclude<Waited['kind'], 'decided'>, Pick<AuditedWhat, 'decision' | 'reason'>> = {
      timeout: { decision: 'timeout', reason: 'no one answered' },
      withdrawn: { decision: 'withdrawn', reason: 'caller gone' },
      failed: { decision: 'deny', reason: `approval failed: ${waited.kind === 'failed' ? waited.message : ''}` },
    };
    this.record(call, request.toolId, { ...unanswered[waited.kind], decider: 'system', ...ruled, waitedMs });
  }

  record(call: AuditedCall, toolId: string, what: AuditedWhat): void {
    const entry: ApprovalAuditEntry = {
      at: this.clock.now(),
      callId: call.callId,
      sessionId: call.sessionId,
      toolId,
      argsDigest: call.argsDigest ?? digestArgs(call.args),
      ...what,
    };
    try {
      this.sink?.record(entry);
    } catch {
      // The person's decision stands even if the audit store is failing; the host logs its own errors.
    }
    this.decisions.emit(entry);
  }
}
