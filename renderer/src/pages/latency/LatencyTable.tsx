/** Every tool's calls and attempts apart, how the calls ended, and its run-time percentiles; a row selects the tool. */
import type { UsageStats } from '../../../../shared/contract';
import { formatDuration, formatPercent } from '../../components/format';
import { hrefFor } from '../../router/hash-route';

/** Of the calls the tool ran to an end, the share it answered: denials, mistakes and refusals are not the tool's. */
export function toolSuccessRate(s: Pick<UsageStats, 'outcomes'>): number {
  const ran = s.outcomes.succeeded + s.outcomes.toolFailed;
  return ran ? s.outcomes.succeeded / ran : Number.NaN;
}

export function LatencyTable(props: { stats: UsageStats[]; selectedId: string | undefined }): React.JSX.Element {
  return (
    <div className="table-scroll">
      <table className="data-table selectable compact" aria-label="Latency per tool">
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col" className="num" title="Requests; a retried call is one call">
              Calls
            </th>
            <th scope="col" className="num" title="Times the tool ran, retries included">
              Attempts
            </th>
            <th
              scope="col"
              className="num"
              title="Tool success: of the calls the tool ran to an end, the share that succeeded"
            >
              Success
            </th>
            <th scope="col" className="num" title="Calls the tool itself failed">
              Failed
            </th>
            <th scope="col" className="num" title="Invalid arguments, unknown names: the caller's mistake">
              Caller
            </th>
            <th scope="col" className="num" title="Denied by a person, or no answer in time">
              Denied
            </th>
            <th
              scope="col"
              className="num"
              title={
                'Refused by a policy or a rule (no one was asked), ' +
                'the breaker, the rate limiter or the environment gate'
              }
            >
              Refused
            </th>
            <th scope="col" className="num" title="Median run time of an attempt">
              p50
            </th>
            <th scope="col" className="num" title="95th percentile run time of an attempt">
              p95
            </th>
          </tr>
        </thead>
        <tbody>
          {props.stats.map((s) => (
            <tr key={s.toolId} aria-selected={s.toolId === props.selectedId}>
              <th scope="row">
                <a
                  href={hrefFor('latency', s.toolId)}
                  aria-current={s.toolId === props.selectedId ? 'true' : undefined}
                >
                  <code>{s.toolId}</code>
                </a>
              </th>
              <td className="num" data-testid="calls">
                {s.calls}
              </td>
              <td className="num" data-testid="attempts">
                {s.attempts}
              </td>
              <td className={`num${s.outcomes.toolFailed > 0 ? ' warn-text' : ''}`}>
                {formatPercent(toolSuccessRate(s))}
              </td>
              <td className="num">{s.outcomes.toolFailed}</td>
              <td className="num">{s.outcomes.callerMistake}</td>
              <td className="num">{s.outcomes.denied + s.outcomes.unanswered}</td>
              <td className="num">{s.outcomes.refused + s.outcomes.policyRefused}</td>
              <td className="num mono">{s.attempts ? formatDuration(s.latencyMs.p50) : '—'}</td>
              <td className="num mono">{s.attempts ? formatDuration(s.latencyMs.p95) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
