/**
 * The contract's approval methods: the waiting calls, a person's decisions, the audit log and the
 * approval rules. They are reached only with the person's UI session (/api/rpc, Electron IPC):
 * no MCP token and no tool call can approve a call or change a rule.
 */
import type { ApprovalRule as RuleView, PendingApproval } from '../../shared/contract';
import { type ApprovalRule, globMatches, parseRule, ruleText } from '../core/pipeline/approval-rules';
import type { ApprovalDecision } from '../core/permission';
import type { ToolRegistry } from '../core/registry';
import type { ApprovalQueue, PendingApprovalItem } from './approval-queue';
import type { HostApiHandlers } from './http/rpc-dispatch';
import type { ApprovalRuleStore, StoredRule } from './store/approval-rule-store';
import type { AuditStore } from './store/audit-store';

export interface ApprovalApiDeps {
  approvals: ApprovalQueue;
  audit: AuditStore;
  rules: ApprovalRuleStore;
  registry: ToolRegistry;
}

type ApprovalHandlers = Pick<
  HostApiHandlers,
  'pendingApprovals' | 'decideApproval' | 'auditLog' | 'approvalRules' | 'addApprovalRule' | 'removeApprovalRule'
>;

export function pendingView(item: PendingApprovalItem): PendingApproval {
  return {
    approvalId: item.approvalId,
    callId: item.callId,
    sessionId: item.sessionId,
    toolId: item.toolId,
    title: item.title,
    args: item.args,
    ...(item.ignored !== undefined ? { ignored: { ...item.ignored } } : {}),
    ...(item.target !== undefined ? { target: item.target } : {}),
    choices: item.choices ?? [{ decision: 'approve_once', label: 'Approve once', covers: 'this call only' }],
    ...(item.rule !== undefined ? { rule: item.rule } : {}),
    risk: item.risk,
    annotations: item.annotations,
    requester: item.requester,
    requestedAt: item.requestedAt,
    expiresAt: item.expiresAt,
  };
}

/** A rule naming a tool without wildcards must name fields that tool declares: a typo would match nothing. */
function unknownFields(rule: Pick<ApprovalRule, 'tool' | 'args'>, registry: ToolRegistry): string | undefined {
  if (/[*?]/.test(rule.tool)) return undefined;
  const tool = registry.get(rule.tool);
  if (tool === undefined) return `no tool is called ${rule.tool}; use its id as the Tools page lists it, or a pattern`;
  const properties = (tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
  const declared = Object.keys(properties);
  const wrong = rule.args.filter((a) => !declared.includes(a.field)).map((a) => a.field);
  if (wrong.length === 0) return undefined;
  return `${tool.id} has no field ${wrong.join(', ')}; its fields are ${declared.join(', ') || '(none)'}`;
}

export function approvalApi(deps: ApprovalApiDeps): ApprovalHandlers {
  const view = (rule: StoredRule): RuleView => ({
    id: rule.id,
    effect: rule.effect,
    tool: rule.tool,
    args: rule.args,
    text: ruleText(rule),
    ...(rule.note !== undefined ? { note: rule.note } : {}),
    createdAt: rule.createdAt,
    matchesTools: deps.registry.list().filter((t) => globMatches(rule.tool, t.id)).length,
  });

  return {
    pendingApprovals: () => deps.approvals.pending().map(pendingView),
    decideApproval: ({ approvalId, decision, reason }) => {
      const answer: ApprovalDecision =
        decision === 'deny' ? { decision, decider: 'ui', ...(reason ? { reason } : {}) } : { decision, decider: 'ui' };
      const answered = deps.approvals.answer(approvalId, answer);
      if (answered.ok) return { ok: true, message: `Decision '${decision}' recorded.` };
      return {
        ok: false,
        message:
          answered.why === 'gone'
            ? 'This approval is no longer pending (decided, expired, or withdrawn because the caller is gone).'
            : `This call does not offer '${decision}'; choose one of the approvals on its card.`,
      };
    },
    auditLog: ({ limit }) => deps.audit.recent(limit),
    approvalRules: () => deps.rules.list().map(view),
    addApprovalRule: ({ effect, rule, note }) => {
      const parsed = parseRule(rule);
      if (!parsed.ok) return { ok: false, message: `Not a rule: ${parsed.error}.` };
      const wrong = unknownFields(parsed, deps.registry);
      if (wrong !== undefined) return { ok: false, message: `Not added: ${wrong}.` };
      const added = deps.rules.add({
        effect,
        tool: parsed.tool,
        args: parsed.args,
        ...(note?.trim() ? { note: note.trim() } : {}),
      });
      return { ok: true, message: `Rule #${added.id} added: ${effect} ${ruleText(added)}.`, rule: view(added) };
    },
    removeApprovalRule: ({ id }) =>
      deps.rules.remove(id) ? { ok: true, message: `Rule #${id} removed.` } : { ok: false, message: `No rule #${id}.` },
  };
}
