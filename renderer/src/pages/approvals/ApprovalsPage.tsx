/**
 * Approvals: the calls waiting for a person, grouped by tool and client (oldest first), the calls
 * that ended without a decision, the person's approval rules, and the audit history. Keyboard
 * focus goes to the first waiting call when the page opens (or to the one a link names, as a
 * click on a desktop notification does) and to the next one after a decision.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { PendingApproval } from '../../../../shared/contract';
import { describeError } from '../../api/host-request-error';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useNow } from '../../components/use-now';
import { useHashRoute } from '../../router/hash-route';
import { useApi } from '../../state/api-context';
import type { EndedApproval } from '../../state/event-bridge';
import { useAuditLog, useEndedApprovals, usePendingApprovals } from '../../state/queries';
import { queryKeys } from '../../state/query-keys';
import { ApprovalGroupSection } from './ApprovalGroupSection';
import { ApprovalRules } from './ApprovalRules';
import { AuditTable } from './AuditTable';
import { BrowserAlertsToggle } from './BrowserAlertsToggle';
import { type DecisionName, PendingApprovalCard } from './PendingApprovalCard';
import { type ApprovalGroup, groupApprovals } from './approval-groups';

const SAID: Record<DecisionName, string> = {
  approve_once: 'Approved once',
  approve_session: 'Approved for the session',
  approve_target: 'Approved on its target for the session',
  deny: 'Denied',
};

export function ApprovalsPage(): React.JSX.Element {
  const api = useApi();
  const client = useQueryClient();
  const pending = usePendingApprovals();
  const ended = useEndedApprovals();
  const audit = useAuditLog();
  const now = useNow(1_000);
  const route = useHashRoute();
  const focusRef = useRef<HTMLElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState('');
  const [focusWanted, setFocusWanted] = useState(true);
  const [opened, setOpened] = useState<ReadonlyMap<string, boolean>>(new Map());
  const list = pending.data ?? [];
  const groups = groupApprovals(list);
  const linked = route.page === 'approvals' ? route.params[0] : undefined;
  const focusId = list.some((a) => a.approvalId === linked) ? linked : groups[0]?.items[0]?.approvalId;
  const isOpen = (g: ApprovalGroup, i: number) =>
    opened.get(g.key) ?? (i === 0 || g.items.some((a) => a.approvalId === focusId));

  useEffect(() => {
    if (linked !== undefined) setFocusWanted(true);
  }, [linked]);

  useEffect(() => {
    if (!focusWanted || !focusId || !focusRef.current) return;
    // Only take focus from nowhere, the page title or a decided card, or when a link names the card.
    const active = document.activeElement;
    const free =
      focusId === linked ||
      !active ||
      active === document.body ||
      active.matches('h1, main') ||
      (listRef.current?.contains(active) ?? false);
    if (free) {
      focusRef.current.focus();
      if (focusId === linked) focusRef.current.scrollIntoView({ block: 'center' });
    }
    setFocusWanted(false);
  }, [focusWanted, focusId, linked]);

  const removeFromList = (approvalId: string) =>
    client.setQueryData<PendingApproval[]>(queryKeys.pending, (old) => old?.filter((a) => a.approvalId !== approvalId));

  const decide = useMutation({
    mutationFn: (v: { approval: PendingApproval; decision: DecisionName; reason: string }) =>
      api.decideApproval({
        approvalId: v.approval.approvalId,
        decision: v.decision,
        ...(v.reason.trim() ? { reason: v.reason.trim() } : {}),
      }),
    onSuccess: (result, v) => {
      setStatus(result.ok ? `${SAID[v.decision]}: ${v.approval.toolId}.` : `Not decided: ${result.message}`);
      removeFromList(v.approval.approvalId);
      void client.invalidateQueries({ queryKey: queryKeys.audit });
      setFocusWanted(true);
    },
    onError: (e) => setStatus(`Decision failed: ${describeError(e)}`),
  });

  const denyAll = async (group: ApprovalGroup) => {
    for (const a of group.items) {
      await api.decideApproval({
        approvalId: a.approvalId,
        decision: 'deny',
        reason: 'denied with the rest of its group',
      });
      removeFromList(a.approvalId);
    }
    setStatus(`Denied ${group.items.length} calls of ${group.toolId} from ${group.client}.`);
    void client.invalidateQueries({ queryKey: queryKeys.audit });
    setFocusWanted(true);
  };

  const dismiss = (approvalId: string) =>
    client.setQueryData<EndedApproval[]>(queryKeys.endedApprovals, (old) =>
      old?.filter((e) => e.approval.approvalId !== approvalId),
    );

  return (
    <>
      <PageHeader
        title="Approvals"
        description={
          'Destructive and high-risk calls wait here for a ' +
          'decision. No answer before the time runs out is a denial.'
        }
      />
      <BrowserAlertsToggle />
      <p className="status-line" role="status" aria-live="polite" data-testid="approval-status">
        {status}
      </p>
      {(ended.data ?? []).length > 0 ? (
        <div className="approval-list" data-testid="ended-approvals">
          {(ended.data ?? []).map((e) => (
            <PendingApprovalCard
              key={e.approval.approvalId}
              approval={e.approval}
              now={now}
              busy={false}
              ended={e.outcome}
              onDecide={() => undefined}
              onDismiss={() => dismiss(e.approval.approvalId)}
            />
          ))}
        </div>
      ) : null}
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
          <div className="approval-groups" ref={listRef}>
            {list.length > 1 ? (
              <p className="small muted" data-testid="approval-summary">
                {list.length} calls wait, in {groups.length} {groups.length === 1 ? 'group' : 'groups'} by tool and
                client.
              </p>
            ) : null}
            {groups.map((g, i) => (
              <ApprovalGroupSection
                key={g.key}
                group={g}
                open={isOpen(g, i)}
                now={now}
                busyId={decide.isPending ? decide.variables?.approval.approvalId : undefined}
                focusId={focusId}
                focusRef={focusRef}
                onToggle={(open) => setOpened((m) => new Map(m).set(g.key, open))}
                onDecide={(approval, decision, reason) => decide.mutate({ approval, decision, reason })}
                onDenyAll={(group) => void denyAll(group)}
              />
            ))}
          </div>
        )}
      </QueryState>
      <ApprovalRules />
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
