/**
 * A tool's run-time histogram: one bar per bucket of attempts, labelled by its range. Refused
 * calls never ran, so they are not in it (a breaker's refusal is not a fast call).
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { UsageStats } from '../../../../shared/contract';
import { plural } from '../../components/call-classes-view';
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
  const refused = props.stats.outcomes.refused;
  const refusedNote = refused
    ? ` ${plural(refused, 'refused call')} never ran and ${refused === 1 ? 'is' : 'are'} not in it.`
    : '';
  if (data.length === 0) return <p className="muted">No attempt ran yet.{refusedNote}</p>;
  const summary = data
    .filter((d) => d.count > 0)
    .map((d) => `${plural(d.count, 'attempt')} ${d.label}`)
    .join(', ');
  return (
    <figure
      className="chart"
      role="img"
      aria-label={`Run time of the attempts of ${props.stats.toolId}: ${summary}`}
      data-testid="latency-histogram"
    >
      <ResponsiveContainer width="100%" height={250}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 20, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
          <XAxis
            dataKey="label"
            fontSize={11}
            interval={0}
            angle={-30}
            textAnchor="end"
            height={60}
            label={{ value: 'run time of one attempt', position: 'insideBottom', offset: -14, fontSize: 11 }}
          />
          <YAxis
            allowDecimals={false}
            fontSize={11}
            width={48}
            label={{ value: 'attempts', angle: -90, position: 'insideLeft', fontSize: 11, dy: 20 }}
          />
          <Tooltip cursor={{ fill: 'var(--hover)' }} formatter={(v) => [plural(Number(v), 'attempt'), 'ran']} />
          <Bar dataKey="count" name="attempts" fill="var(--accent)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
      <figcaption>
        {plural(props.stats.attempts, 'attempt')} by how long the tool ran.{refusedNote}
      </figcaption>
    </figure>
  );
}
