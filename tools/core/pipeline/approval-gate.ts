/**
 * Approval gate (docs/architecture.md#approval-gate): HIGH-risk or destructive tools wait for a
 * person's decision: approve once, approve the tool for the session (any arguments), approve the
 * tool on one target for the session (a device, a folder, a host), or deny with a reason. The
 * person's approval rules (approval-rules.ts) are applied first: a deny refuses without asking,
 * an allow runs without asking, an ask asks even a tool that would not. The session state machine
 * and the self-gated skip are core's ToolPermissionManager; this gate adds what a real wait needs:
 * a deadline (default 120 s; no answer is a denial saying how long the call waited), progress to
 * the caller while it waits (so a client that resets its timeout on progress keeps the call), the
 * wait withdrawn the moment the caller is gone (it cancelled, disconnected or its request ended:
 * the prompt is withdrawn through the decider's signal and can no longer be approved), and an
 * audit record of every decision with who, what (an arguments digest), the scope it covers, the
 * rule that made it and how long it waited. Tools that ask a person while they run go through
 * `askInTool`, with the same rules, progress, deadline and audit, their run timeout held
 * (person-waits.ts).
 */
import { approvalTargetOf } from '../approval-target';
import { type Disposable, Emitter } from '../disposable';
import {
  type ApprovalAnswer,
  type ApprovalChoice,
  type ApprovalDecider,
  type ApprovalDecision,
  type ApprovalRequest,
  type ApprovalTarget,
  DEFAULT_SELF_GATED,
  ToolPermissionManager,
  needsApproval,
} from '../permission';
import { type ToolFailure, failure } from '../result';
import type { ProgressUpdate, Requester, Tool } from '../tool';
import type { ArgsDigest } from '../trace-span';
import { digestArgs } from '../trace/args-digest';
import { type ApprovalRule, decidingRule, ruleName } from './approval-rules';
import { cancelledResult } from './cancellation';
import { type Clock, type TimerHandle, systemClock } from './clock';
import type { PersonWaits } from './person-waits';

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

type Waited =
  | { kind: 'decided'; decision: ApprovalDecision }
  | { kind: 'timeout' }
  | { kind: 'withdrawn' }
  | { kind: 'failed'; message: string };

interface Asked {
  request: ApprovalRequest;
  digest: ArgsDigest;
  rule: ApprovalRule | undefined;
}

const NO_RULES: readonly ApprovalRule[] = [];

/** "0:42", "1:40": how a wait reads to a person and to a model. */
export function minutesSeconds(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** "session claude#3 (client claude)", "the UI session". */
export function sessionWords(sessionId: string): string {
  if (sessionId === 'ui') return 'the UI session';
  if (sessionId === 'local' || sessionId === '') return 'local calls';
  const hash = sessionId.lastIndexOf('#');
  return hash > 0 ? `session ${sessionId} (client ${sessionId.slice(0, hash)})` : `session ${sessionId}`;
}

export class ApprovalGate {
  /** The session state machine; the host calls `permissions.endSession()` when a session ends. */
  readonly permissions: ToolPermissionManager;
  readonly timeoutMs: number;
  private readonly decide: ApprovalDecider;
  private readonly clock: Clock;
  private readonly audit: ApprovalAuditSink | undefined;
  private readonly rules: () => readonly ApprovalRule[];
  private readonly progressMs: number;
  private readonly waits: PersonWaits | undefined;
  private readonly decisions = new Emitter<ApprovalAuditEntry>();
  /** Calls of self-gated tools a person approved at the tool level, so their own gate does not ask again. */
  private readonly approvedCalls = new Set<string>();

  constructor(options: ApprovalGateOptions) {
    this.decide = options.decide;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    this.clock = options.clock ?? systemClock;
    this.audit = options.audit;
    this.rules = options.rules ?? (() => NO_RULES);
    this.progressMs = options.progressIntervalMs ?? DEFAULT_APPROVAL_PROGRESS_MS;
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
    return this.decisions.on(listener);
  }

  /** Whether a call of this tool may have to wait or be refused here: it needs approval, or rules exist. */
  concerns(tool: Tool): boolean {
    return (needsApproval(tool) && !this.permissions.isSelfGated(tool)) || this.rules().length > 0;
  }

  /**
   * undefined when the call may run; a refusal (or a cancellation) otherwise. Answers at once,
   * without a promise, when nobody has to be asked.
   */
  check(
    tool: Tool,
    call: ApprovalCheck,
    signal?: AbortSignal,
  ): ToolFailure | undefined | Promise<ToolFailure | undefined> {
    const rules = this.rules();
    const gated = needsApproval(tool) && !this.permissions.isSelfGated(tool);
    if (!gated && rules.length === 0) return undefined;
    const rule = rules.length > 0 ? decidingRule(rules, tool.id, call.args) : undefined;
    if (rule?.effect === 'deny') {
      this.record(call, tool.id, { decision: 'deny', decider: 'rule', rule: ruleName(rule) });
      return ruleRefusal(tool.id, rule);
    }
    if (!gated && rule?.effect !== 'ask') return undefined;
    const target = approvalTargetOf(call.args);
    if (rule?.effect !== 'ask' && this.permissions.state(call.sessionId, tool.id, target) !== 'ask') return undefined;
    if (rule?.effect === 'allow') {
      this.record(call, tool.id, { decision: 'allow', decider: 'rule', rule: ruleName(rule), scope: 'this call only' });
      return undefined;
    }
    const request: ApprovalRequest = {
      callId: call.callId,
      sessionId: call.sessionId,
      toolId: tool.id,
      title: tool.title,
      args: call.args,
      risk: tool.metadata.risk,
      annotations: tool.metadata.annotations,
      requester: call.requester,
      ...(call.ignored !== undefined ? { ignored: call.ignored } : {}),
      ...(target !== undefined ? { target } : {}),
      choices: toolChoices(tool.id, call.sessionId, rule === undefined ? target : undefined, rule === undefined),
    };
    if (rule !== undefined) request.rule = ruleName(rule);
    const digest = call.argsDigest ?? digestArgs(call.args);
    return this.ask({ request, digest, rule }, signal, call.onProgress).then((waited) =>
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
   * Never throws; every way the wait can end is a decision (a deny saying why).
   */
  async askInTool(request: ApprovalRequest, options: InToolAsk = {}): Promise<ApprovalDecision> {
    const digest = digestArgs(request.args);
    const call = { callId: request.callId, sessionId: request.sessionId, argsDigest: digest };
    const rules = this.rules();
    const rule = rules.length > 0 ? decidingRule(rules, request.toolId, request.args) : undefined;
    if (rule?.effect === 'deny') {
      this.record(call, request.toolId, { decision: 'deny', decider: 'rule', rule: ruleName(rule) });
      return { decision: 'deny', reason: `the approval rule ${ruleName(rule)} denies it`, decider: 'rule' };
    }
    if (rule?.effect === 'allow') {
      this.record(call, request.toolId, {
        decision: 'allow',
        decider: 'rule',
        rule: ruleName(rule),
        scope: 'this call only',
      });
      return { decision: 'approve_once', decider: 'rule' };
    }
    if (rule === undefined && this.approvedCalls.has(request.callId))
      return { decision: 'approve_once', decider: 'ui' };
    const asked: ApprovalRequest = {
      ...request,
      choices: [
        ONCE,
        ...(options.sessionCovers !== undefined && rule === undefined
          ? [inToolSession(request, options.sessionCovers)]
          : []),
      ],
      ...(rule !== undefined ? { rule: ruleName(rule) } : {}),
    };
    const hold = this.waits?.hold(request.callId);
    let waited: Waited & { waitedMs: number };
    try {
      waited = await this.ask({ request: asked, digest, rule }, options.signal, hold?.progress);
    } finally {
      hold?.release();
    }
    if (waited.kind === 'decided') return waited.decision;
    if (waited.kind === 'timeout')
      return {
        decision: 'deny',
        reason: `no one answered: it waited ${minutesSeconds(waited.waitedMs)} for a person's approval`,
        decider: 'system',
      };
    if (waited.kind === 'withdrawn')
      return { decision: 'deny', reason: 'withdrawn: the caller is gone', decider: 'system' };
    return { decision: 'deny', reason: `approval could not be obtained: ${waited.message}`, decider: 'system' };
  }

  /** Waits for the person and writes the decision down. */
  private async ask(
    asked: Asked,
    signal: AbortSignal | undefined,
    onProgress: ((update: ProgressUpdate) => void) | undefined,
  ): Promise<Waited & { waitedMs: number }> {
    const since = this.clock.now();
    const waited = await this.wait(asked.request, signal, onProgress);
    const waitedMs = this.clock.now() - since;
    const { request } = asked;
    const call = { callId: request.callId, sessionId: request.sessionId, argsDigest: asked.digest };
    const rule = asked.rule !== undefined ? { rule: ruleName(asked.rule) } : {};
    if (waited.kind === 'decided') {
      const d = waited.decision;
      const scope = d.decision === 'deny' ? undefined : coverOf(request, d.decision);
      this.record(call, request.toolId, {
        decision: d.decision,
        ...(d.decision === 'deny' && d.reason?.trim() ? { reason: d.reason.trim() } : {}),
        ...(d.decider !== undefined ? { decider: d.decider } : {}),
        ...(scope !== undefined ? { scope } : {}),
        ...rule,
        waitedMs,
      });
    } else if (waited.kind === 'timeout')
      this.record(call, request.toolId, {
        decision: 'timeout',
        reason: 'no one answered',
        decider: 'system',
        ...rule,
        waitedMs,
      });
    else if (waited.kind === 'withdrawn')
      this.record(call, request.toolId, {
        decision: 'withdrawn',
        reason: 'caller gone',
        decider: 'system',
        ...rule,
        waitedMs,
      });
    else
      this.record(call, request.toolId, {
        decision: 'deny',
        reason: `approval failed: ${waited.message}`,
        decider: 'system',
        ...rule,
        waitedMs,
      });
    return { ...waited, waitedMs };
  }

  private toolOutcome(
    tool: Tool,
    request: ApprovalRequest,
    waited: Waited & { waitedMs: number },
  ): ToolFailure | undefined {
    switch (waited.kind) {
      case 'withdrawn':
        return cancelledResult(tool.id, 'while waiting for approval');
      case 'timeout':
        return failure(
          'PERMISSION_DENIED',
          `No one answered: the call to '${tool.id}' waited ${minutesSeconds(waited.waitedMs)} for a person's approval and did not run.`,
          {
            hint: 'Nobody approved this call in time. Do not retry it on your own; tell the user it needs their approval.',
            data: { gate: 'approval', decision: 'timeout', slug: 'approval-timeout', waitedMs: waited.waitedMs },
          },
        );
      case 'failed':
        return failure('PERMISSION_DENIED', `Approval for '${tool.id}' could not be obtained: ${waited.message}`, {
          data: { gate: 'approval', decision: 'deny', slug: 'approval-failed' },
        });
      case 'decided': {
        const offered = request.choices ?? [ONCE];
        const decision = waited.decision;
        // An answer the card did not offer (a target for a call naming none) counts as once.
        const answer: ApprovalDecision =
          decision.decision !== 'deny' && !offered.some((c) => c.decision === decision.decision)
            ? { ...decision, decision: 'approve_once' }
            : decision;
        const denied = this.permissions.apply(tool, request.sessionId, answer, request.target);
        if (denied) {
          denied.error.data = { ...denied.error.data, gate: 'approval', decision: 'deny', slug: 'approval-denied' };
          return denied;
        }
        if (this.permissions.isSelfGated(tool)) this.approvedCalls.add(request.callId);
        return undefined;
      }
    }
  }

  private wait(
    request: ApprovalRequest,
    signal: AbortSignal | undefined,
    onProgress: ((update: ProgressUpdate) => void) | undefined,
  ): Promise<Waited> {
    return new Promise<Waited>((resolve) => {
      // Aborted when the wait ends without an answer, so the UI withdraws the prompt: with
      // 'expired' when the time ran out, 'withdrawn' when the caller is gone.
      const prompt = new AbortController();
      const deadline = this.clock.now() + this.timeoutMs;
      let settled = false;
      let timer: TimerHandle | undefined;
      let ticker: TimerHandle | undefined;
      let ticks = 0;
      const settle = (waited: Waited) => {
        if (settled) return;
        settled = true;
        if (timer !== undefined) this.clock.clearTimeout(timer);
        if (ticker !== undefined) this.clock.clearTimeout(ticker);
        signal?.removeEventListener('abort', onAbort);
        if (waited.kind === 'timeout') prompt.abort('expired');
        else if (waited.kind === 'withdrawn') prompt.abort('withdrawn');
        resolve(waited);
      };
      const onAbort = () => settle({ kind: 'withdrawn' });
      if (signal?.aborted) return settle({ kind: 'withdrawn' });
      signal?.addEventListener('abort', onAbort, { once: true });
      timer = this.clock.setTimeout(() => settle({ kind: 'timeout' }), this.timeoutMs);
      const tick = () => {
        ticker = undefined;
        if (settled) return;
        ticks++;
        const left = minutesSeconds(deadline - this.clock.now());
        onProgress?.({ progress: ticks, message: `waiting for a person's approval, ${left} left` });
        ticker = this.clock.setTimeout(tick, this.progressMs);
      };
      if (onProgress !== undefined) ticker = this.clock.setTimeout(tick, this.progressMs);
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

  private record(
    call: { callId: string; sessionId: string; argsDigest?: ArgsDigest | undefined; args?: unknown },
    toolId: string,
    what: Omit<ApprovalAuditEntry, 'at' | 'callId' | 'sessionId' | 'toolId' | 'argsDigest'>,
  ): void {
    const entry: ApprovalAuditEntry = {
      at: this.clock.now(),
      callId: call.callId,
      sessionId: call.sessionId,
      toolId,
      argsDigest: call.argsDigest ?? digestArgs(call.args),
      ...what,
    };
    try {
      this.audit?.record(entry);
    } catch {
      // The person's decision stands even if the audit store is failing; the host logs its own errors.
    }
    this.decisions.emit(entry);
  }
}

const ONCE: ApprovalChoice = { decision: 'approve_once', label: 'Approve once', covers: 'this call only' };

function toolChoices(
  toolId: string,
  sessionId: string,
  target: ApprovalTarget | undefined,
  grants: boolean,
): ApprovalChoice[] {
  if (!grants) return [ONCE];
  const rest = `for the rest of ${sessionWords(sessionId)}`;
  const choices: ApprovalChoice[] = [
    ONCE,
    {
      decision: 'approve_session',
      label: `Approve ${toolId} for this session`,
      covers: `${toolId} with any arguments, ${rest}`,
    },
  ];
  if (target !== undefined) {
    const where = target.kind === 'folder' ? `${target.label} (its files, not the folders inside it)` : target.label;
    choices.push({
      decision: 'approve_target',
      label: `Approve ${toolId} on ${target.label} for this session`,
      covers: `${toolId} on ${where}, ${rest}`,
    });
  }
  return choices;
}

function inToolSession(request: ApprovalRequest, covers: string): ApprovalChoice {
  return {
    decision: 'approve_session',
    label: 'Approve for this session',
    covers: `${covers}, for the rest of ${sessionWords(request.sessionId)}`,
  };
}

function coverOf(request: ApprovalRequest, decision: ApprovalAnswer): string {
  return (request.choices ?? [ONCE]).find((c) => c.decision === decision)?.covers ?? ONCE.covers;
}

function ruleRefusal(toolId: string, rule: ApprovalRule): ToolFailure {
  return failure('PERMISSION_DENIED', `The approval rule ${ruleName(rule)} denies this call to '${toolId}'.`, {
    hint: 'A person set this rule; do not retry this call or a variant of it. Change your approach, or ask the user.',
    data: { gate: 'approval', decision: 'deny', slug: 'approval-rule-denied', rule: rule.id },
  });
}

function isDecision(value: unknown): value is ApprovalDecision {
  const d = (value as { decision?: unknown } | null)?.decision;
  return d === 'approve_once' || d === 'approve_session' || d === 'approve_target' || d === 'deny';
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
