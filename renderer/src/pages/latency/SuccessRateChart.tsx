/**
 * Calls per minute by how they ended (stacked bars) and the tool's success rate (a line with a
 * dot per minute). A minute in which the tool ran nothing has no rate: the line has a gap there
 * rather than an arc drawn across minutes without calls.
 */
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { UsageStats } from '../../../../shared/contract';
import { CALL_CLASSES, CLASS_COLOR, CLASS_LEGEND, legendOrder } from '../../components/call-classes-view';
import { formatClock } from '../../components/format';

export type SuccessPoint = UsageStats['perMinute'][number] & { rate: number | null };

export function successSeries(perMinute: UsageStats['perMinute']): SuccessPoint[] {
  return perMinute.map((m) => {
    const ran = m.succeeded + m.toolFailed;
    return { ...m, rate: ran ? Math.round((m.succeeded / ran) * 1000) / 10 : null };
  });
}

const hhmm = (m: number) => formatClock(m).slice(0, 5);

export function SuccessRateChart(props: { stats: UsageStats }): React.JSX.Element {
  const data = successSeries(props.stats.perMinute);
  if (!data.some((d) => d.calls > 0)) return <p className="muted">No calls in the usage window.</p>;
  const present = CALL_CLASSES.filter((c) => data.some((d) => d[c] > 0));
  return (
    <figure
      className="chart"
      role="img"
      aria-label={`Calls per minute by how they ended, and the tool's success rate, for ${props.stats.toolId}`}
      data-testid="success-rate-chart"
    >
      <ResponsiveContainer width="100%" height={250}>
        <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 20, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
          <XAxis
            dataKey="minute"
            tickFormatter={hhmm}
            fontSize={11}
            minTickGap={30}
            label={{ value: 'minute (local time)', position: 'insideBottom', offset: -14, fontSize: 11 }}
          />
          <YAxis
            yAxisId="calls"
            allowDecimals={false}
            fontSize={11}
            width={48}
            label={{ value: 'calls / min', angle: -90, position: 'insideLeft', fontSize: 11, dy: 30 }}
          />
          <YAxis
            yAxisId="rate"
            orientation="right"
            domain={[0, 100]}
            unit=" %"
            fontSize={11}
            width={52}
            label={{ value: 'tool success', angle: 90, position: 'insideRight', fontSize: 11, dy: -30 }}
          />
          <Tooltip labelFormatter={(m) => `minute ${hhmm(Number(m))}`} cursor={{ fill: 'var(--hover)' }} />
          <Legend
            verticalAlign="top"
            height={28}
            iconSize={10}
            wrapperStyle={{ fontSize: 12 }}
            itemSorter={legendOrder}
          />
          {present.map((c) => (
            <Bar
              key={c}
              yAxisId="calls"
              dataKey={c}
              stackId="calls"
              fill={CLASS_COLOR[c]}
              name={CLASS_LEGEND[c]}
              isAnimationActive={false}
            />
          ))}
          <Line
            yAxisId="rate"
            type="linear"
            dataKey="rate"
            name="tool success %"
            stroke="var(--text)"
            strokeWidth={1.5}
            connectNulls={false}
            isAnimationActive={false}
            dot={{ r: 3 }}
          />
        </ComposedChart>
      </ResponsiveContainer>
      <figcaption>
        Tool success is the share of the calls the tool ran to an end that succeeded; minutes without such calls have no
        point.
      </figcaption>
    </figure>
  );
}
