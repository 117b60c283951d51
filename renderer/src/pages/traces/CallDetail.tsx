/**
 * One call's story: each attempt with its outcome, error code and the error's own words (cleaned
 * of argument text), the backoff before it; how the call ended and the hint its caller read; its
 * breaker at the time and the approval that preceded it; the calls it started; and, while the
 * host remembers the call, its arguments (kept in memory only) with Run again and Open in Try it.
 * The bug report downloads the whole story as one JSON file, without argument text.
 */
import type { CallDetail as CallDetailData, Span } from '../../../../shared/contract';
import { CALL_CLASS_WORDS } from '../../../../shared/call-classes';
import { Badge } from '../../components/Badge';
import { EmptyState } from '../../components/EmptyState';
import { QueryState } from '../../components/QueryState';
import { formatClock, formatDuration, formatRequester } from '../../components/format';
import { hrefFor } from '../../router/hash-route';
import { useCallDetail } from '../../state/queries';
import { ArgsDigestTable } from './ArgsDigestTable';
import { BreakerAtTime } from './BreakerAtTime';
import { NOT_RUN_TITLE, attemptLabel } from './attempt-label';
import { CallReportButton } from './CallReportButton';
import { OutcomeBadge } from './OutcomeBadge';
import { RememberedArguments } from './RememberedArguments';

const CLASS_TONE = {
  succeeded: 'good',
  toolFailed: 'bad',
  callerMistake: 'warn',
  denied: 'warn',
  unanswered: 'neutral',
  policyRefused: 'warn',
  refused: 'neutral',
  cancelled: 'neutral',
} as const;

/** The attempts; an attempt's error text is in the row when there are several (one is in the failure box above). */
/** An approval's badge: green for an approval of any scope, red for a denial or a withdrawal. */
const decisionTone = (decision: string) => (decision.startsWith('approve') ? 'good' : 'bad');

function AttemptRows(props: { spans: Span[] }): React.JSX.Element {
  const several = props.spans.length > 1;
  return (
    <div className="table-scroll">
      <table className="data-table" aria-label="Attempts">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Started</th>
            <th scope="col">Duration</th>
            <th scope="col">Outcome</th>
            <th scope="col">Error</th>
            <th scope="col">Backoff before</th>
          </tr>
        </thead>
        <tbody>
          {props.spans.map((s) => (
            <tr key={s.spanId}>
              <td title={s.attempt === 0 ? NOT_RUN_TITLE : undefined}>{attemptLabel(s.attempt)}</td>
              <td className="mono">{formatClock(s.startedAt)}</td>
              <td className="mono">{formatDuration(s.durationMs)}</td>
              <td>
                <OutcomeBadge outcome={s.outcome} />
              </td>
              <td>
                {s.errorCode ? <code>{s.errorCode}</code> : '—'}
                {several && s.errorText ? (
                  <div className="small wrap" data-testid="attempt-error-text">
                    {s.errorText}
                  </div>
                ) : several && s.errorSlug ? (
                  <div className="muted small wrap">{s.errorSlug}</div>
                ) : null}
              </td>
              <td className="mono">{s.backoffMs > 0 ? formatDuration(s.backoffMs) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Story(props: { detail: CallDetailData }): React.JSX.Element {
  const { detail } = props;
  const first = detail.spans[0]!;
  const last = detail.spans[detail.spans.length - 1]!;
  const hintSource = detail.hint?.source === 'default' ? ` (the default for ${last.errorCode})` : '';
  const ran = detail.spans.filter((s) => s.attempt >= 1).length;
  const cls = detail.callClass;
  return (
    <>
      <dl className="facts">
        <dt>Tool</dt>
        <dd>
          <a href={hrefFor('tools', first.toolId)}>
            <code>{first.toolId}</code>
          </a>
        </dd>
        <dt>Result</dt>
        <dd data-testid="call-result">
          <OutcomeBadge outcome={last.outcome} />{' '}
          {cls ? <Badge tone={CLASS_TONE[cls]}>{CALL_CLASS_WORDS[cls].one}</Badge> : null}{' '}
          {ran === 0 ? 'refused before the tool ran' : `after ${ran} attempt${ran === 1 ? '' : 's'}`}
        </dd>
        <dt>Session</dt>
        <dd>
          <code className="wrap">{first.sessionId}</code> ({first.requesterKind})
        </dd>
        {first.parentCallId ? (
          <>
            <dt>Part of</dt>
            <dd>
              <a href={hrefFor('traces', first.parentCallId)}>call {first.parentCallId}</a>
            </dd>
          </>
        ) : null}
        {detail.memory?.replayOf ? (
          <>
            <dt>Replay of</dt>
            <dd>
              <a href={hrefFor('traces', detail.memory.replayOf)}>call {detail.memory.replayOf}</a>
            </dd>
          </>
        ) : null}
      </dl>
      {last.errorCode ? (
        <section className="failure-box" aria-label="Why it failed" data-testid="failure">
          <p className="row">
            <Badge tone="bad">{last.errorCode}</Badge>
            <span className="muted small">
              {last.attempt === 0 ? 'refused before running' : `attempt ${last.attempt}`}
              {last.backoffMs > 0 ? `, after a backoff of ${formatDuration(last.backoffMs)}` : ''}
            </span>
          </p>
          <p className="error-message wrap" data-testid="failure-text">
            {last.errorText ?? last.errorSlug ?? 'No message was given.'}
          </p>
          {detail.hint ? (
            <p className="hint" data-testid="failure-hint">
              <strong>Hint{hintSource}:</strong> {detail.hint.text}
            </p>
          ) : null}
        </section>
      ) : null}
      <AttemptRows spans={detail.spans} />
      <h3>Approval</h3>
      {detail.approvals.length === 0 ? (
        <p className="muted small">No person was asked about this call.</p>
      ) : (
        <ul className="plain-list" data-testid="call-approvals">
          {detail.approvals.map((a) => (
            <li key={a.id} className="small">
              <span className="mono">{formatClock(a.at)}</span>{' '}
              <Badge tone={decisionTone(a.decision)}>{a.decision.replace('_', ' ')}</Badge>{' '}
              {a.decider ? `by ${a.decider}` : ''} {a.reason ? <q>{a.reason}</q> : null}
            </li>
          ))}
        </ul>
      )}
      <h3>Breaker at the time</h3>
      <BreakerAtTime breakers={detail.breakers} />
      {detail.nested.length ? (
        <>
          <h3>Calls it started</h3>
          <ul className="plain-list small" data-testid="nested-calls">
            {nestedCalls(detail.nested).map((s) => (
              <li key={s.callId} className="row">
                <a href={hrefFor('traces', s.callId)}>
                  <code>{s.toolId}</code>
                </a>
                <OutcomeBadge outcome={s.outcome} />
                {s.errorCode ? <code>{s.errorCode}</code> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h3>Arguments</h3>
      <RememberedArguments callId={detail.callId} toolId={first.toolId} memory={detail.memory} />
      <h3>Arguments digest</h3>
      <ArgsDigestTable digest={first.argsDigest} />
      {detail.memory ? <p className="muted small">Asked by {formatRequester(detail.memory.requester)}.</p> : null}
    </>
  );
}

/** One row per nested call: its last span. */
function nestedCalls(spans: readonly Span[]): Span[] {
  const byCall = new Map<string, Span>();
  for (const s of spans) {
    const seen = byCall.get(s.callId);
    if (!seen || s.attempt > seen.attempt) byCall.set(s.callId, s);
  }
  return [...byCall.values()].sort((a, b) => a.startedAt - b.startedAt);
}

export function CallDetail(props: { callId: string; onClose(): void }): React.JSX.Element {
  const detail = useCallDetail(props.callId);
  return (
    <section className="card call-detail" aria-labelledby="call-title" data-testid="call-detail">
      <header className="row spread">
        <h2 id="call-title">
          Call <code>{props.callId}</code>
        </h2>
        <span className="row">
          <CallReportButton callId={props.callId} />
          <button type="button" className="secondary" onClick={props.onClose} aria-label="Close call details">
            Close
          </button>
        </span>
      </header>
      <QueryState
        query={detail}
        what="the call's story"
        isEmpty={(d) => d.spans.length === 0}
        empty={
          <EmptyState title="No spans for this call.">
            It may be older than the host's trace retention, or still running.
          </EmptyState>
        }
      >
        {(d) => <Story detail={d} />}
      </QueryState>
    </section>
  );
}
