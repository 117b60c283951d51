/**
 * One tool: calls and attempts apart, how its calls ended, its run-time histogram and outcomes per minute, its last
 * failure.
 */
import type { UsageStats } from '../../../../shared/contract';
import { Badge } from '../../components/Badge';
import { describeCounts, plural } from '../../components/call-classes-view';
import { formatDateTime, formatDuration, formatPercent } from '../../components/format';
import { hrefFor } from '../../router/hash-route';
import { HistogramChart } from './HistogramChart';
import { toolSuccessRate } from './LatencyTable';
import { SuccessRateChart } from './SuccessRateChart';

export function LatencyDetail(props: { stats: UsageStats }): React.JSX.Element {
  const { stats } = props;
  const l = stats.latencyMs;
  const ran = stats.attempts > 0;
  return (
    <section className="card" aria-labelledby="latency-detail-title" data-testid="latency-detail">
      <h2 id="latency-detail-title">
        <code>{stats.toolId}</code>
      </h2>
      <dl className="stat-row">
        {(
          [
            ['Calls', String(stats.calls)],
            ['Attempts', `${stats.attempts}${stats.retries ? ` (${plural(stats.retries, 'retry', 'retries')})` : ''}`],
            ['Tool success', formatPercent(toolSuccessRate(stats))],
            ['p50', ran ? formatDuration(l.p50) : '—'],
            ['p95', ran ? formatDuration(l.p95) : '—'],
            ['p99', ran ? formatDuration(l.p99) : '—'],
            ['Max', ran ? formatDuration(l.max) : '—'],
          ] as const
        ).map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd data-testid={`stat-${k.toLowerCase().replace(/ /g, '-')}`}>{v}</dd>
          </div>
        ))}
      </dl>
      <p className="small" data-testid="call-outcomes">
        How the {plural(stats.calls, 'call')} ended: {describeCounts(stats.outcomes)}.
      </p>
      <h3>Run time per attempt</h3>
      <HistogramChart stats={stats} />
      <h3>Calls per minute and tool success</h3>
      <SuccessRateChart stats={stats} />
      {stats.lastError ? (
        <p className="row" data-testid="last-error">
          <span>Last tool failure:</span> <Badge tone="bad">{stats.lastError.code}</Badge>{' '}
          <span className="wrap">{stats.lastError.message}</span>
          <a className="muted small" href={hrefFor('traces', stats.lastError.callId)}>
            {formatDateTime(stats.lastError.at)}
          </a>
        </p>
      ) : null}
    </section>
  );
}
