/**
 * One call waiting for a person: what will run (the tool, the parsed arguments with defaults
 * filled in, the fields sent but ignored), where it comes from, why it asks (a rule), how long
 * until it counts as denied, and the answers it offers, each saying what it covers. A card whose
 * caller left, or whose time ran out, stays to say so and can no longer be answered.
 *
 * Keys on the focused card: A approve once, S this tool for the session, T this tool on the
 * target, D deny (type a reason, Enter), ↓ ↑ the next and previous card.
 */
import { type KeyboardEvent, type Ref, useId, useRef, useState } from 'react';
import type { PendingApproval } from '../../../../shared/contract';
import { AnnotationBadges } from '../../components/AnnotationBadges';
import { JsonBlock } from '../../components/JsonBlock';
import { RiskBadge } from '../../components/RiskBadge';
import { formatClock, formatCountdown, timeLeft } from '../../components/format';
import { describeOrigin } from './origin';

export type DecisionName = 'approve_once' | 'approve_session' | 'approve_target' | 'deny';

export interface PendingApprovalCardProps {
  approval: PendingApproval;
  now: number;
  busy: boolean;
  /** Set when the call ended without a decision. */
  ended?: 'withdrawn' | 'expired';
  onDecide(decision: DecisionName, reason: string): void;
  onDismiss?(): void;
  /** Shown as one line until it takes focus or is opened (the later cards of a long group). */
  compact?: boolean;
  ref?: Ref<HTMLElement>;
}

const KEYS: Record<string, DecisionName> = { a: 'approve_once', s: 'approve_session', t: 'approve_target' };

const ENDED_SAYS = {
  withdrawn: 'Withdrawn: the caller is gone (it cancelled, timed out or disconnected). This call will not run.',
  expired: 'Expired: no one answered in time, so the call was denied and did not run.',
};

/** Moves focus to the next or previous card on the page. */
function focusSibling(card: HTMLElement, step: 1 | -1): void {
  const cards = [...document.querySelectorAll<HTMLElement>('[data-testid="pending-approval"]')];
  cards[cards.indexOf(card) + step]?.focus();
}

export function PendingApprovalCard(props: PendingApprovalCardProps): React.JSX.Element {
  const { approval: a, now, ended } = props;
  const [reason, setReason] = useState('');
  const [expanded, setExpanded] = useState(!props.compact);
  const reasonRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const left = timeLeft(a, now);
  const open = ended === undefined && !props.busy;
  const offered = new Set<string>(a.choices.map((c) => c.decision));
  const ignored = Object.entries(a.ignored ?? {});

  const onCardKey = (e: KeyboardEvent<HTMLElement>) => {
    if (e.target !== e.currentTarget || e.altKey || e.ctrlKey || e.metaKey) return;
    const key = e.key.toLowerCase();
    if (key === 'arrowdown' || key === 'arrowup') {
      e.preventDefault();
      focusSibling(e.currentTarget, key === 'arrowdown' ? 1 : -1);
      return;
    }
    if (!open) return;
    const decision = KEYS[key];
    if (decision && offered.has(decision)) {
      e.preventDefault();
      props.onDecide(decision, '');
    } else if (key === 'd') {
      e.preventDefault();
      if (reasonRef.current) reasonRef.current.focus();
      else {
        // A one-line card has no reason field until it opens; focus it once drawn.
        setExpanded(true);
        requestAnimationFrame(() => reasonRef.current?.focus());
      }
    }
  };

  if (!expanded) {
    const args = JSON.stringify(a.args);
    return (
      <article
        ref={props.ref}
        tabIndex={-1}
        className="card approval-card approval-compact row spread"
        aria-label={`${a.title} (${a.toolId}): ${args}`}
        data-testid="pending-approval"
        data-approval-id={a.approvalId}
        onKeyDown={onCardKey}
        onFocus={(e) => e.target === e.currentTarget && setExpanded(true)}
      >
        <span className="row">
          <strong>{a.toolId}</strong>{' '}
          <code className="small">{args.length > 120 ? `${args.slice(0, 117)}…` : args}</code>
        </span>
        <span className="row">
          <span className={left < 15_000 ? 'bad-text' : 'muted'}>
            {left > 0 ? `${formatCountdown(left)} left` : 'expired'}
          </span>
          <button type="button" className="secondary" onClick={() => setExpanded(true)}>
            Open
          </button>
        </span>
      </article>
    );
  }

  return (
    <article
      ref={props.ref}
      tabIndex={-1}
      className={`card approval-card${ended ? ' approval-ended' : ''}`}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-left ${id}-keys`}
      data-testid="pending-approval"
      data-approval-id={a.approvalId}
      onKeyDown={onCardKey}
    >
      <header className="row spread">
        <h3 id={`${id}-title`} className="row">
          {a.title} <code className="muted">{a.toolId}</code>
        </h3>
        <span id={`${id}-left`} className={ended || left < 15_000 ? 'bad-text' : 'muted'} aria-live="off">
          {ended ? ended : left > 0 ? `${formatCountdown(left)} left` : 'expired: counts as denied'}
        </span>
      </header>
      {ended ? (
        <p className="approval-ended-note" role="status" data-testid="approval-ended">
          {ENDED_SAYS[ended]}{' '}
          <button type="button" className="secondary" onClick={() => props.onDismiss?.()}>
            Dismiss
          </button>
        </p>
      ) : null}
      <p className="badges">
        <RiskBadge risk={a.risk} />
        <AnnotationBadges annotations={a.annotations} />
      </p>
      <p className="small" data-testid="approval-origin">
        From <strong>{describeOrigin(a.requester)}</strong> at {formatClock(a.requestedAt)} · session{' '}
        <code>{a.sessionId}</code> · call <code>{a.callId}</code>
      </p>
      {a.rule ? (
        <p className="small" data-testid="approval-rule">
          Asked because of the rule <code>{a.rule}</code>.
        </p>
      ) : null}
      <p className="small muted">What will run (defaults filled in):</p>
      <JsonBlock value={a.args} label={`Arguments of ${a.toolId}`} maxHeight={220} />
      {ignored.length > 0 ? (
        <div className="approval-ignored" data-testid="approval-ignored">
          <p className="small">
            Sent but <strong>ignored</strong>: {a.toolId} has no such field, so these will not be used.
          </p>
          <ul className="small mono">
            {ignored.map(([name, value]) => (
              <li key={name}>
                {name}: {JSON.stringify(value)} <span className="badge badge-warn">ignored</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="form-field">
        <label htmlFor={`${id}-reason`}>Reason for a denial (optional; the agent reads it)</label>
        <input
          id={`${id}-reason`}
          ref={reasonRef}
          type="text"
          value={reason}
          maxLength={2000}
          disabled={!open}
          onChange={(e) => setReason(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && open) {
              e.preventDefault();
              props.onDecide('deny', reason);
            } else if (e.key === 'Escape') {
              e.currentTarget.closest<HTMLElement>('[data-testid="pending-approval"]')?.focus();
            }
          }}
        />
      </div>
      <ul className="approval-choices">
        {a.choices.map((c, i) => (
          <li key={c.decision}>
            <button
              type="button"
              className={i === 0 ? undefined : 'secondary'}
              disabled={!open}
              aria-describedby={`${id}-${c.decision}`}
              onClick={() => props.onDecide(c.decision, reason)}
            >
              {c.label}
            </button>{' '}
            <span id={`${id}-${c.decision}`} className="small muted">
              covers {c.covers}
            </span>
          </li>
        ))}
        <li>
          <button type="button" className="danger" disabled={!open} onClick={() => props.onDecide('deny', reason)}>
            Deny
          </button>
        </li>
      </ul>
      <p id={`${id}-keys`} className="small muted">
        Keys: A approve once{offered.has('approve_session') ? ' · S for the session' : ''}
        {offered.has('approve_target') ? ' · T on this target' : ''} · D deny with a reason (Enter) · ↓ ↑ next card
      </p>
    </article>
  );
}
