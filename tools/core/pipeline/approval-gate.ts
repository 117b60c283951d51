/**
 * Approval gate (docs/architecture.md#approval-gate): HIGH-risk or destructive tools wait for a
 * person's decision — approve once, approve for the session, or deny with a reason. The session
 * state machine and the self-gated skip are core's ToolPermissionManager; this gate adds what a
 * real wait needs: a decision deadline (default 120 s; no answer is a denial), cancellation by the
 * caller while waiting (the prompt is withdrawn through the decider's signal), and an audit record
 * of every decision with who, what, an arguments digest and when.
 */
import { type Disposable, Emitter } from '../disposable';
import {
  type ApprovalDecider,
  type ApprovalDecision,
  type ApprovalRequest,
  DEFAULT_SELF_GATED,
  ToolPermissionManager,
  needsApproval,
} from '../permission';
import { type ToolFailure, failure } from '../result';
import type { Requester, Tool } from '../tool';
import type { ArgsDigest } from '../trace-span';
import { digestArgs } from '../trace/args-digest';
import { cancelledResult } from './cancellation';
import { type Clock, type TimerHandle, systemClock } from './clock';

export type AuditedDecision = 'approve_once' | 'approve_session' | 'deny' | 'timeout';

export interface ApprovalAuditEntry {
  at: number;
  callId: string;
  sessionId: string;
  toolId: string;
  argsDigest: ArgsDigest;
  decision: AuditedDecision;
  reason?: string;
  decider?: string;
}

/** Where every decision is written (the host's SQLite audit table, a file, a test array). */
export interface ApprovalAuditSink {
  record(entry: ApprovalAuditEntry): void;
}

export interface ApprovalGateOptions {
  decide: ApprovalDecider;
  /** How long to wait for a decision before denying; default 120 s. */
  timeoutMs?: number;
  clock?: Clock;
  audit?: ApprovalAuditSink;
  selfGatedIds?: ReadonlySet<string>;
}

export interface ApprovalCheck {
  callId: string;
  sessionId: string;
  args: unknown;
  requester: Requester;
  /** The digest the pipeline already computed; made from `args` when absent. */
  argsDigest?: ArgsDigest;
}

export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;

type Waited =
  | { kind: 'decided'; decision: ApprovalDecision }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string };

export class ApprovalGate {
  /** The session state machine; the host calls `permissions.endSession()` when a session ends. */
  readonly permissions: ToolPermissionManager;
  readonly timeoutMs: number;
  private readonly decide: ApprovalDecider;
  private readonly clock: Clock;
  private readonly audit: ApprovalAuditSink | undefined;
  private readonly decisions = new Emitter<ApprovalAuditEntry>();

  constructor(options: ApprovalGateOptions) {
    this.decide = options.decide;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    this.clock = options.clock ?? systemClock;
    this.audit = options.audit;
    // The gate asks the person itself (with a timeout and an audit entry) and hands the answer to
    // the state machine through `apply`; the manager's own decider is never consulted.
    this.permissions = new ToolPermissionManager(
      async () => ({ decision: 'deny', reason: 'decisions go through the approval gate' }),
      options.selfGatedIds ?? DEFAULT_SELF_GATED,
    );
  }

  /** Whether a call of this tool in this session has to wait for a person. Cheap; no side effects. */
  requiresDecision(tool: Tool, sessionId: string): boolean {
    return (
      needsApproval(tool) &&
      !this.permissions.isSelfGated(tool) &&
      this.permissions.state(sessionId, tool.id) !== 'allowed_session'
    );
  }

  /** Every decision as it is audited. */
  onDecision(listener: (entry: ApprovalAuditEntry) => void): Disposable {
    return this.decisions.on(listener);
  }

  /** undefined when the call may run; a refusal (or a cancellation) otherwise. */
  async check(tool: Tool, call: ApprovalCheck, signal?: AbortSignal): Promise<ToolFailure | undefined> {
    if (!this.requiresDecision(tool, call.sessionId)) return undefined;
    const request: ApprovalRequest = {
      callId: call.callId,
      sessionId: call.sessionId,
      toolId: tool.id,
      title: tool.title,
      args: call.args,
      risk: tool.metadata.risk,
      annotations: tool.metadata.annotations,
      requester: call.requester,
    };
    const waited = await this.wait(request, signal);
    this.record(call, tool.id, waited);
    switch (waited.kind) {
      case 'cancelled':
        return cancelledResult(tool.id, 'while waiting for approval');
      case 'timeout':
        return failure(
          'PERMISSION_DENIED',
          `No approval decision for '${tool.id}' came within ${Math.round(this.timeoutMs / 1000)} s, so the call was denied.`,
          {
            hint: 'Nobody approved this call in time. Do not retry it on your own; tell the user it needs their approval.',
            data: { gate: 'approval', decision: 'timeout', slug: 'approval-timeout' },
          },
        );
      case 'failed':
        return failure('PERMISSION_DENIED', `Approval for '${tool.id}' could not be obtained: ${waited.message}`, {
          data: { gate: 'approval', decision: 'deny', slug: 'approval-failed' },
        });
      case 'decided': {
        const denied = this.permissions.apply(tool, call.sessionId, waited.decision);
        if (denied)
          denied.error.data = { ...denied.error.data, gate: 'approval', decision: 'deny', slug: 'approval-denied' };
        return denied;
      }
    }
  }

  private wait(request: ApprovalRequest, signal: AbortSignal | undefined): Promise<Waited> {
    return new Promise<Waited>((resolve) => {
      // Aborted when the wait ends without an answer, so the UI can withdraw the prompt.
      const prompt = new AbortController();
      let settled = false;
      let timer: TimerHandle | undefined;
      const settle = (waited: Waited) => {
        if (settled) return;
        settled = true;
        if (timer !== undefined) this.clock.clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (waited.kind === 'timeout' || waited.kind === 'cancelled') prompt.abort();
        resolve(waited);
      };
      const onAbort = () => settle({ kind: 'cancelled' });
      if (signal?.aborted) return settle({ kind: 'cancelled' });
      signal?.addEventListener('abort', onAbort, { once: true });
      timer = this.clock.setTimeout(() => settle({ kind: 'timeout' }), this.timeoutMs);
      let answer: Promise<ApprovalDecision>;
      try {
        answer = Promise.resolve(this.decide(request, prompt.signal));
      } catch (e) {
        return settle({ kind: 'failed', message: messageOf(e) });
      }
      answer.then(
        (decision) =>
          settle(
            isDecision(decision)
              ? { kind: 'decided', decision }
              : { kind: 'failed', message: 'the approver gave no valid decision' },
          ),
        (e: unknown) => settle({ kind: 'failed', message: messageOf(e) }),
      );
    });
  }

  private record(call: ApprovalCheck, toolId: string, waited: Waited): void {
    const entry: ApprovalAuditEntry = {
      at: this.clock.now(),
      callId: call.callId,
      sessionId: call.sessionId,
      toolId,
      argsDigest: call.argsDigest ?? digestArgs(call.args),
      decision: 'deny',
    };
    if (waited.kind === 'decided') {
      entry.decision = waited.decision.decision;
      if (waited.decision.decision === 'deny' && waited.decision.reason?.trim())
        entry.reason = waited.decision.reason.trim();
      if (waited.decision.decider !== undefined) entry.decider = waited.decision.decider;
    } else if (waited.kind === 'timeout') entry.decision = 'timeout';
    else if (waited.kind === 'cancelled') entry.reason = 'cancelled by the caller';
    else entry.reason = `approval failed: ${waited.message}`;
    try {
      this.audit?.record(entry);
    } catch {
      // The person's decision stands even if the audit store is failing; the host logs its own errors.
    }
    this.decisions.emit(entry);
  }
}

function isDecision(value: unknown): value is ApprovalDecision {
  const d = (value as { decision?: unknown } | null)?.decision;
  return d === 'approve_once' || d === 'approve_session' || d === 'deny';
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
