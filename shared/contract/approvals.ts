/**
 * Approvals: who asked, what a person is asked and may answer, the audit log, and the person's
 * standing rules. Part of the contract (shared/contract.ts).
 */
import { z } from 'zod';
import { Annotations, Risk } from './tools';

/** A caller, as a person reads it: its kind, its id (a session label or a parent call id) and its name. */
const Caller = z.object({ kind: z.string(), id: z.string().optional(), label: z.string().optional() });
/**
 * Who asked: `id` is the session's label (`<client>#<n>`) or the parent call, `label` the client
 * program's own name or the batch or shortcut; `step` the step of a batch or shortcut; `via` who
 * asked for that batch or shortcut.
 */
export const Requester = Caller.extend({ step: z.number().optional(), via: Caller.optional() });
export const ApprovalTarget = z.object({
  kind: z.enum(['device', 'folder', 'host']),
  value: z.string(),
  label: z.string(),
});
export const Decision = z.enum(['approve_once', 'approve_session', 'approve_target', 'deny']);
/** One way to approve a waiting call, and what it covers ("this call only", "app_uninstall on device X, for …"). */
export const ApprovalChoice = z.object({
  decision: z.enum(['approve_once', 'approve_session', 'approve_target']),
  label: z.string(),
  covers: z.string(),
});
export type ApprovalChoice = z.infer<typeof ApprovalChoice>;
export const PendingApproval = z.object({
  approvalId: z.string(),
  callId: z.string(),
  /** The session's label (`<client>#<n>`), never an MCP session id. */
  sessionId: z.string(),
  toolId: z.string(),
  title: z.string(),
  /** What will run: the parsed arguments, defaults filled in. */
  args: z.unknown(),
  /** Fields the caller sent that the tool does not declare, as sent: they will not be used. */
  ignored: z.record(z.string(), z.unknown()).optional(),
  target: ApprovalTarget.optional(),
  /** The approvals offered (a denial always is). */
  choices: z.array(ApprovalChoice).default([]),
  /** The approval rule that made the call ask, when one did. */
  rule: z.string().optional(),
  risk: Risk,
  annotations: Annotations,
  requester: Requester,
  requestedAt: z.number(),
  expiresAt: z.number(),
});
export type PendingApproval = z.infer<typeof PendingApproval>;

export const DecideInput = z.object({
  approvalId: z.string().min(1),
  decision: Decision,
  reason: z.string().max(2000).optional(),
});

export const AuditEntry = z.object({
  id: z.number(),
  at: z.number(),
  callId: z.string(),
  /** The session's label: `<client>#<n>` names the MCP client token the call came with. */
  sessionId: z.string(),
  toolId: z.string(),
  argsDigest: z.string(),
  /** `allow` is a rule's; `withdrawn` a caller that left; `cancelled` what older versions wrote for it. */
  decision: z.enum([
    'approve_once',
    'approve_session',
    'approve_target',
    'allow',
    'deny',
    'timeout',
    'withdrawn',
    'cancelled',
  ]),
  reason: z.string().optional(),
  decider: z.string().optional(),
  /** What the approval covered. */
  scope: z.string().optional(),
  /** The approval rule that decided. */
  rule: z.string().optional(),
  waitedMs: z.number().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const RuleEffect = z.enum(['allow', 'ask', 'deny']);
/** A person's approval rule: `write_file path=notes/**` allow. */
export const ApprovalRule = z.object({
  id: z.number(),
  effect: RuleEffect,
  tool: z.string(),
  args: z.array(z.object({ field: z.string(), pattern: z.string() })),
  /** The rule as written: `app_uninstall packageName=com.android.*`. */
  text: z.string(),
  note: z.string().optional(),
  createdAt: z.number(),
  /** The registered tools its tool pattern matches now. */
  matchesTools: z.number(),
});
export type ApprovalRule = z.infer<typeof ApprovalRule>;
