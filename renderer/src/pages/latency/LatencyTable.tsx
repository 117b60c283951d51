/** Every tool's call count, success rate and latency percentiles; a row selects the tool. */
import type { UsageStats } from '../../../../shared/contract';
import { formatDuration, formatPercent } from '../../components/format';
import { hrefFor } from '../../router/hash-route';

export function LatencyTable(props: { stats: UsageStats[]; selectedId: string | undefined }): React.JSX.Element {
  return (
    <table className="data-table selectable" aria-label="Latency per tool">
      <thead>
        <tr>
          <th scope="col">Tool</th>
          <th scope="col">Calls</th>
          <th scope="col">Success</th>
          <th scope="col">p50</th>
          <th scope="col">p95</th>
          <th scope="col">p99</th>
          <th scope="col">Mean</th>
        </tr>
      </thead>
      <tbody>
        {props.stats.map((s) => (
          <tr key={s.toolId} aria-selected={s.toolId === props.selectedId}>
            <th scope="row">
              <a href={hrefFor('latency', s.toolId)} aria-current={s.toolId === props.selectedId ? 'true' : undefined}>
                <code>{s.toolId}</code>
              </a>
            </th>
            <td>{s.count}</td>
            <td className={s.failures > 0 ? 'warn-text' : undefined}>
              {formatPercent(s.count ? s.successes / s.count : NaN)}
            </td>
            <td className="mono">{formatDuration(s.latencyMs.p50)}</td>
            <td className="mono">{formatDuration(s.latencyMs.p95)}</td>
            <td className="mono">{formatDuration(s.latencyMs.p99)}</td>
            <td className="mono">{formatDuration(s.latencyMs.mean)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
