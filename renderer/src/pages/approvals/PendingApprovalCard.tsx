/**
 * One call waiting for a person: what it would do (tool, arguments, risk, annotations), who asks,
 * how long until it is denied by timeout, and the three answers. The card itself is focusable so
 * the page can put keyboard focus on the first waiting item; Tab reaches the reason and buttons.
 */
import { type Ref, useId, useState } from 'react';
import type { PendingApproval } from '../../../../shared/contract';
import { AnnotationBadges } from '../../components/AnnotationBadges';
import { JsonBlock } from '../../components/JsonBlock';
import { RiskBadge } from '../../components/RiskBadge';
import { formatClock, formatCountdown, formatRequester } from '../../components/format';

export type DecisionName = 'approve_once' | 'approve_session' | 'deny';

export interface PendingApprovalCardProps {
  approval: PendingApproval;
  now: number;
  busy: boolean;
  onDecide(decision: DecisionName, reason: string): void;
  ref?: Ref<HTMLElement>;
}

export function PendingApprovalCard(props: PendingApprovalCardProps): React.JSX.Element {
  const { approval: a, now } = props;
  const [reason, setReason] = useState('');
  const id = useId();
  const left = a.expiresAt - now;
  return (
    <article
      ref={props.ref}
      tabIndex={-1}
      className="card approval-card"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-left`}
      data-testid="pending-approval"
    >
      <header className="row spread">
        <h2 id={`${id}-title`} className="row">
          {a.title} <code className="muted">{a.toolId}</code>
        </h2>
        <span id={`${id}-left`} className={left < 15_000 ? 'bad-text' : 'muted'} aria-live="off">
          {left > 0 ? `${formatCountdown(left)} left` : 'expired: counts as denied'}
        </span>
      </header>
      <p className="badges">
        <RiskBadge risk={a.risk} />
        <AnnotationBadges annotations={a.annotations} />
      </p>
      <p className="small">
        Requested by <strong>{formatRequester(a.requester)}</strong> at {formatClock(a.requestedAt)} · session{' '}
        <code>{a.sessionId}</code> · call <code>{a.callId}</code>
      </p>
      <JsonBlock value={a.args} label={`Arguments of ${a.toolId}`} maxHeight={260} />
      <div className="form-field">
        <label htmlFor={`${id}-reason`}>Reason (optional; the agent reads it with a denial)</label>
        <input
          id={`${id}-reason`}
          type="text"
          value={reason}
          maxLength={2000}
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
      <div className="row">
        <button type="button" disabled={props.busy} onClick={() => props.onDecide('approve_once', reason)}>
          Approve once
        </button>
        <button
          type="button"
          className="secondary"
          disabled={props.busy}
          onClick={() => props.onDecide('approve_session', reason)}
        >
          Approve for this session
        </button>
        <button type="button" className="danger" disabled={props.busy} onClick={() => props.onDecide('deny', reason)}>
          Deny
        </button>
      </div>
    </article>
  );
}
