/**
 * Approvals: the calls waiting for a person, oldest first, and the audit history. Keyboard focus
 * goes to the first waiting call when the page opens and to the next one after a decision.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { PendingApproval } from '../../../../shared/contract';
import { describeError } from '../../api/host-request-error';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useNow } from '../../components/use-now';
import { useApi } from '../../state/api-context';
import { useAuditLog, usePendingApprovals } from '../../state/queries';
import { queryKeys } from '../../state/query-keys';
import { AuditTable } from './AuditTable';
import { BrowserAlertsToggle } from './BrowserAlertsToggle';
import { type DecisionName, PendingApprovalCard } from './PendingApprovalCard';

const SAID: Record<DecisionName, string> = {
  approve_once: 'Approved once',
  approve_session: 'Approved for the session',
  deny: 'Denied',
};

export function ApprovalsPage(): React.JSX.Element {
  const api = useApi();
  const client = useQueryClient();
  const pending = usePendingApprovals();
  const audit = useAuditLog();
  const now = useNow(1_000);
  const first = useRef<HTMLElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState('');
  const [focusWanted, setFocusWanted] = useState(true);
  const list = [...(pending.data ?? [])].sort((a, b) => a.requestedAt - b.requestedAt);
  const firstId = list[0]?.approvalId;

  useEffect(() => {
    if (!focusWanted || !firstId || !first.current) return;
    // Only take focus from nowhere, the page title or a decided card: never from a field in use.
    const active = document.activeElement;
    const free =
      !active || active === document.body || active.matches('h1, main') || (listRef.current?.contains(active) ?? false);
    if (free) first.current.focus();
    setFocusWanted(false);
  }, [focusWanted, firstId]);

  const decide = useMutation({
    mutationFn: (v: { approval: PendingApproval; decision: DecisionName; reason: string }) =>
      api.decideApproval({
        approvalId: v.approval.approvalId,
        decision: v.decision,
        ...(v.reason.trim() ? { reason: v.reason.trim() } : {}),
      }),
    onSuccess: (result, v) => {
      setStatus(result.ok ? `${SAID[v.decision]}: ${v.approval.toolId}.` : `Not decided: ${result.message}`);
      client.setQueryData<PendingApproval[]>(queryKeys.pending, (old) =>
        old?.filter((a) => a.approvalId !== v.approval.approvalId),
      );
      void client.invalidateQueries({ queryKey: queryKeys.audit });
      setFocusWanted(true);
    },
    onError: (e) => setStatus(`Decision failed: ${describeError(e)}`),
  });

  return (
    <>
      <PageHeader
        title="Approvals"
        description="Destructive and high-risk calls wait here for a decision. No answer before the time runs out is a denial."
      />
      <BrowserAlertsToggle />
      <p className="status-line" role="status" aria-live="polite" data-testid="approval-status">
        {status}
      </p>
      <QueryState
        query={pending}
        what="pending approvals"
        isEmpty={(l) => l.length === 0}
        empty={
          <EmptyState title="Nothing waits for approval.">
            When an agent calls a destructive or high-risk tool, the call waits here until you decide.
          </EmptyState>
        }
      >
        {() => (
          <div className="approval-list" ref={listRef}>
            {list.map((a, i) => (
              <PendingApprovalCard
                key={a.approvalId}
                ref={i === 0 ? first : undefined}
                approval={a}
                now={now}
                busy={decide.isPending && decide.variables?.approval.approvalId === a.approvalId}
                onDecide={(decision, reason) => decide.mutate({ approval: a, decision, reason })}
              />
            ))}
          </div>
        )}
      </QueryState>
      <h2 className="section-title">History</h2>
      <QueryState
        query={audit}
        what="the audit log"
        isEmpty={(l) => l.length === 0}
        empty={
          <EmptyState title="No decisions yet.">
            Every approval, denial and timeout is recorded here with its arguments digest.
          </EmptyState>
        }
      >
        {(entries) => <AuditTable entries={entries} />}
      </QueryState>
    </>
  );
}
