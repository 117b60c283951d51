/** A tool's latency histogram: one bar per bucket, labelled by its upper bound. */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { UsageStats } from '../../../../shared/contract';
import { formatDuration } from '../../components/format';

export function bucketLabel(le: number | null, previous: number | null | undefined): string {
  if (le === null) return `> ${formatDuration(previous ?? 0)}`;
  return `≤ ${formatDuration(le)}`;
}

/** Empty buckets at either end carry no information; the middle ones keep the scale honest. */
export function trimmedBuckets(buckets: UsageStats['buckets']): Array<{ label: string; count: number }> {
  const labelled = buckets.map((b, i) => ({ label: bucketLabel(b.le, buckets[i - 1]?.le), count: b.count }));
  const first = labelled.findIndex((b) => b.count > 0);
  if (first === -1) return [];
  let last = labelled.length - 1;
  while (last > first && labelled[last]!.count === 0) last--;
  return labelled.slice(Math.max(0, first - 1), last + 2);
}

export function HistogramChart(props: { stats: UsageStats }): React.JSX.Element {
  const data = trimmedBuckets(props.stats.buckets);
  if (data.length === 0) return <p className="muted">No calls recorded yet.</p>;
  const summary = data
    .filter((d) => d.count > 0)
    .map((d) => `${d.count} ${d.label}`)
    .join(', ');
  return (
    <figure
      className="chart"
      role="img"
      aria-label={`Latency histogram for ${props.stats.toolId}: ${summary}`}
      data-testid="latency-histogram"
    >
      <ResponsiveContainer width="100%" height={240}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: -8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
          <XAxis dataKey="label" fontSize={11} interval={0} angle={-30} textAnchor="end" height={54} />
          <YAxis allowDecimals={false} fontSize={11} />
          <Tooltip cursor={{ fill: 'var(--hover)' }} />
          <Bar dataKey="count" name="calls" fill="var(--accent)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
