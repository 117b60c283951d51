/**
 * The approval audit log: who decided what about which call of which client's session, what an
 * approval covered, the rule that decided, how long the call waited, and when.
 */
import type { AuditEntry } from '../../../../shared/contract';
import { Badge, type BadgeTone } from '../../components/Badge';
import { formatDateTime, formatDuration } from '../../components/format';
import { hrefFor } from '../../router/hash-route';

/** The stored digest is JSON ({fields: {name: {kind, length}}}); shown as "path: string(11)". */
export function readableDigest(digest: string): string {
  try {
    const parsed = JSON.parse(digest) as { fields?: Record<string, { kind?: string; length?: number }> };
    if (!parsed.fields) return digest;
    const parts = Object.entries(parsed.fields).map(([name, f]) => `${name}: ${f.kind ?? '?'}(${f.length ?? '?'})`);
    return parts.length ? parts.join(', ') : 'no arguments';
  } catch {
    return digest;
  }
}

const TONE: Record<AuditEntry['decision'], BadgeTone> = {
  approve_once: 'good',
  approve_session: 'good',
  approve_target: 'good',
  allow: 'good',
  deny: 'bad',
  timeout: 'warn',
  withdrawn: 'neutral',
  cancelled: 'neutral',
};

export function AuditTable(props: { entries: AuditEntry[] }): React.JSX.Element {
  return (
    <div className="table-scroll">
      <table className="data-table" aria-label="Approval audit log" data-testid="audit-table">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Tool</th>
            <th scope="col">Session</th>
            <th scope="col">Decision</th>
            <th scope="col">Covers</th>
            <th scope="col">Reason</th>
            <th scope="col">By</th>
            <th scope="col">Waited</th>
            <th scope="col">Call</th>
            <th scope="col">Arguments digest</th>
          </tr>
        </thead>
        <tbody>
          {props.entries.map((e) => (
            <tr key={e.id}>
              <td className="mono nowrap">{formatDateTime(e.at)}</td>
              <td>
                <code>{e.toolId}</code>
              </td>
              <td>
                <code>{e.sessionId}</code>
              </td>
              <td>
                <Badge tone={TONE[e.decision]}>{e.decision}</Badge>
              </td>
              <td className="wrap">{e.scope ?? '—'}</td>
              <td className="wrap">{e.reason ?? '—'}</td>
              <td className="wrap">{e.rule ? <code>rule {e.rule}</code> : (e.decider ?? '—')}</td>
              <td className="nowrap">{e.waitedMs !== undefined ? formatDuration(e.waitedMs) : '—'}</td>
              <td>
                <a href={hrefFor('traces', e.callId)} className="mono">
                  {e.callId}
                </a>
              </td>
              <td className="mono small wrap" title={e.argsDigest}>
                {readableDigest(e.argsDigest)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
