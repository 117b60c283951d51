/** Success rate per minute (and the number of calls) over the host's usage window. */
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { UsageStats } from '../../../../shared/contract';
import { formatClock } from '../../components/format';

export function successSeries(
  perMinute: UsageStats['perMinute'],
): Array<{ minute: number; rate: number | null; calls: number }> {
  return perMinute.map((m) => ({
    minute: m.minute,
    calls: m.calls,
    rate: m.calls ? Math.round(((m.calls - m.failures) / m.calls) * 1000) / 10 : null,
  }));
}

export function SuccessRateChart(props: { stats: UsageStats }): React.JSX.Element {
  const data = successSeries(props.stats.perMinute);
  if (!data.some((d) => d.calls > 0)) return <p className="muted">No calls in the usage window.</p>;
  return (
    <figure
      className="chart"
      role="img"
      aria-label={`Success rate per minute for ${props.stats.toolId}`}
      data-testid="success-rate-chart"
    >
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: -8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis
            dataKey="minute"
            tickFormatter={(m: number) => formatClock(m).slice(0, 5)}
            fontSize={11}
            minTickGap={30}
          />
          <YAxis yAxisId="rate" domain={[0, 100]} unit="%" fontSize={11} />
          <YAxis yAxisId="calls" orientation="right" allowDecimals={false} fontSize={11} />
          <Tooltip labelFormatter={(m) => formatClock(Number(m)).slice(0, 5)} />
          <Line
            yAxisId="rate"
            type="monotone"
            dataKey="rate"
            name="success %"
            stroke="var(--good)"
            connectNulls
            isAnimationActive={false}
            dot={{ r: 3 }}
          />
          <Line
            yAxisId="calls"
            type="monotone"
            dataKey="calls"
            name="calls"
            stroke="var(--accent)"
            strokeDasharray="4 3"
            isAnimationActive={false}
            dot={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
