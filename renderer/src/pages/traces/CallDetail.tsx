/**
 * One call: each attempt with its outcome, error code and slug, the backoff before the next
 * retry, and the digest of the arguments (lengths and printable counts, never the values).
 */
import type { Span } from '../../../../shared/contract';
import { QueryState } from '../../components/QueryState';
import { EmptyState } from '../../components/EmptyState';
import { formatClock, formatDuration } from '../../components/format';
import { hrefFor } from '../../router/hash-route';
import { useSpans } from '../../state/queries';
import { ArgsDigestTable } from './ArgsDigestTable';
import { OutcomeBadge } from './OutcomeBadge';

function Attempts(props: { spans: Span[] }): React.JSX.Element {
  const attempts = [...props.spans].sort((a, b) => a.attempt - b.attempt || a.startedAt - b.startedAt);
  const first = attempts[0]!;
  const last = attempts[attempts.length - 1]!;
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
        <dd>
          <OutcomeBadge outcome={last.outcome} /> after {attempts.length} attempt{attempts.length === 1 ? '' : 's'}
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
      </dl>
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
            {attempts.map((s) => (
              <tr key={s.spanId}>
                <td>{s.attempt}</td>
                <td className="mono">{formatClock(s.startedAt)}</td>
                <td className="mono">{formatDuration(s.durationMs)}</td>
                <td>
                  <OutcomeBadge outcome={s.outcome} />
                </td>
                <td>
                  {s.errorCode ? <code>{s.errorCode}</code> : '—'}
                  {s.errorSlug ? <div className="muted small wrap">{s.errorSlug}</div> : null}
                </td>
                <td className="mono">{s.backoffMs > 0 ? formatDuration(s.backoffMs) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3>Arguments digest</h3>
      <ArgsDigestTable digest={first.argsDigest} />
    </>
  );
}

export function CallDetail(props: { callId: string; onClose(): void }): React.JSX.Element {
  const spans = useSpans({ callId: props.callId, limit: 100 });
  return (
    <section className="card call-detail" aria-labelledby="call-title" data-testid="call-detail">
      <header className="row spread">
        <h2 id="call-title">
          Call <code>{props.callId}</code>
        </h2>
        <button type="button" className="secondary" onClick={props.onClose} aria-label="Close call details">
          Close
        </button>
      </header>
      <QueryState
        query={spans}
        what="the call's attempts"
        isEmpty={(list) => list.length === 0}
        empty={
          <EmptyState title="No spans for this call.">
            It may be older than the host's trace retention, or still running.
          </EmptyState>
        }
      >
        {(list) => <Attempts spans={list} />}
      </QueryState>
    </section>
  );
}
