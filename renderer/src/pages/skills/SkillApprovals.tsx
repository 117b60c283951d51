/**
 * The skill installs and removals waiting for a decision, answerable on this page (the Approvals page lists them too).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PendingApproval } from '../../../../shared/contract';
import { useNow } from '../../components/use-now';
import { useApi } from '../../state/api-context';
import { usePendingApprovals } from '../../state/queries';
import { queryKeys } from '../../state/query-keys';
import { type DecisionName, PendingApprovalCard } from '../approvals/PendingApprovalCard';

const SKILL_TOOLS = new Set(['skill_install', 'skill_uninstall']);

export function SkillApprovals(): React.JSX.Element | null {
  const api = useApi();
  const client = useQueryClient();
  const pending = usePendingApprovals();
  const now = useNow(1_000);
  const decide = useMutation({
    mutationFn: (v: { approval: PendingApproval; decision: DecisionName; reason: string }) =>
      api.decideApproval({
        approvalId: v.approval.approvalId,
        decision: v.decision,
        ...(v.reason.trim() ? { reason: v.reason.trim() } : {}),
      }),
    onSuccess: (_r, v) =>
      client.setQueryData<PendingApproval[]>(queryKeys.pending, (old) =>
        old?.filter((a) => a.approvalId !== v.approval.approvalId),
      ),
  });
  const waiting = (pending.data ?? []).filter((a) => SKILL_TOOLS.has(a.toolId));
  if (waiting.length === 0) return null;
  return (
    <section aria-label="Skill changes waiting for approval" className="approval-list skill-approvals">
      {waiting.map((a) => (
        <PendingApprovalCard
          key={a.approvalId}
          approval={a}
          now={now}
          busy={decide.isPending && decide.variables?.approval.approvalId === a.approvalId}
          onDecide={(decision, reason) => decide.mutate({ approval: a, decision, reason })}
        />
      ))}
    </section>
  );
}
