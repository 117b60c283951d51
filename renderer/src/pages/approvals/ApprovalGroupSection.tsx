/**
 * The waiting calls of one tool from one client: a heading with the count, the cards (the first
 * few whole, the rest one line each until they take focus), and a way to deny them all at once.
 * Groups other than the first start folded, so a page with fifty waiting calls shows what waits
 * at a glance; opening a card's link unfolds its group.
 */
import type { Ref } from 'react';
import type { ApprovalGroup } from './approval-groups';
import { type DecisionName, PendingApprovalCard } from './PendingApprovalCard';
import type { PendingApproval } from '../../../../shared/contract';

/** Cards shown whole at the head of a group; the rest are one line each until they take focus. */
const FULL_CARDS = 3;

export interface ApprovalGroupProps {
  group: ApprovalGroup;
  open: boolean;
  now: number;
  busyId: string | undefined;
  /** The card that takes focus (the first waiting call, or the one a link names). */
  focusId: string | undefined;
  focusRef: Ref<HTMLElement>;
  onToggle(open: boolean): void;
  onDecide(approval: PendingApproval, decision: DecisionName, reason: string): void;
  onDenyAll(group: ApprovalGroup): void;
}

export function ApprovalGroupSection(props: ApprovalGroupProps): React.JSX.Element {
  const { group } = props;
  const count = group.items.length;
  return (
    <details
      className="approval-group"
      open={props.open}
      data-testid="approval-group"
      onToggle={(e) => props.onToggle(e.currentTarget.open)}
    >
      <summary>
        <h2 className="approval-group-title">
          <code>{group.toolId}</code> from <strong>{group.client}</strong>{' '}
          <span className="muted">· {count} waiting</span>
        </h2>
      </summary>
      <div className="approval-list">
        {group.items.map((a, i) => (
          <PendingApprovalCard
            key={a.approvalId}
            compact={i >= FULL_CARDS && a.approvalId !== props.focusId}
            ref={a.approvalId === props.focusId ? props.focusRef : undefined}
            approval={a}
            now={props.now}
            busy={props.busyId === a.approvalId}
            onDecide={(decision, reason) => props.onDecide(a, decision, reason)}
          />
        ))}
      </div>
      {count > 1 ? (
        <p className="row">
          <button type="button" className="danger" onClick={() => props.onDenyAll(group)}>
            Deny all {count} of {group.toolId} from {group.client}
          </button>
        </p>
      ) : null}
    </details>
  );
}
