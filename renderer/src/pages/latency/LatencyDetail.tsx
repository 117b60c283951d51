/** One tool's latency: percentiles, histogram, success rate over time, last error. */
import type { UsageStats } from '../../../../shared/contract';
import { Badge } from '../../components/Badge';
import { formatDateTime, formatDuration, formatPercent } from '../../components/format';
import { HistogramChart } from './HistogramChart';
import { SuccessRateChart } from './SuccessRateChart';

export function LatencyDetail(props: { stats: UsageStats }): React.JSX.Element {
  const { stats } = props;
  const l = stats.latencyMs;
  return (
    <section className="card" aria-labelledby="latency-detail-title" data-testid="latency-detail">
      <h2 id="latency-detail-title">
        <code>{stats.toolId}</code>
      </h2>
      <dl className="stat-row">
        {(
          [
            ['Calls', String(stats.count)],
            ['Success', formatPercent(stats.count ? stats.successes / stats.count : NaN)],
            ['p50', formatDuration(l.p50)],
            ['p95', formatDuration(l.p95)],
            ['p99', formatDuration(l.p99)],
            ['Max', formatDuration(l.max)],
          ] as const
        ).map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <h3>Latency histogram</h3>
      <HistogramChart stats={stats} />
      <h3>Success rate per minute</h3>
      <SuccessRateChart stats={stats} />
      {stats.lastError ? (
        <p className="row">
          <span>Last error:</span> <Badge tone="bad">{stats.lastError.code}</Badge>{' '}
          <span className="wrap">{stats.lastError.message}</span>
          <span className="muted small">{formatDateTime(stats.lastError.at)}</span>
        </p>
      ) : null}
    </section>
  );
}
