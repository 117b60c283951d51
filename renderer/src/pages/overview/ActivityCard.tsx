/** Calls per minute over the last half hour, by how they ended, and the tools failing right now. */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Badge } from '../../components/Badge';
import { ErrorState } from '../../components/ErrorState';
import { Loading } from '../../components/Loading';
import {
  CALL_CLASSES,
  CLASS_COLOR,
  CLASS_LEGEND,
  legendOrder,
  describeCounts,
  plural,
} from '../../components/call-classes-view';
import { formatAgo, formatClock } from '../../components/format';
import { useNow } from '../../components/use-now';
import { hrefFor } from '../../router/hash-route';
import { useBreakers, useUsage } from '../../state/queries';
import { type FailingTool, failingTools, sumCounts, totalPerMinute } from './activity';

const hhmm = (m: number) => formatClock(m).slice(0, 5);

function FailingList(props: { failing: FailingTool[]; now: number }): React.JSX.Element {
  if (props.failing.length === 0)
    return (
      <p className="muted" data-testid="no-failing-tools">
        No tool failed a run in the last 5 minutes and every breaker is closed.
      </p>
    );
  return (
    <ul className="plain-list" data-testid="failing-tools">
      {props.failing.map((f) => (
        <li key={f.toolId} data-testid="failing-tool">
          <div className="row">
            <a href={hrefFor(f.breaker ? 'breakers' : 'latency', ...(f.breaker ? [] : [f.toolId]))}>
              <code>{f.toolId}</code>
            </a>
            {f.breaker ? <Badge tone="bad">breaker {f.breaker}</Badge> : null}
            {f.toolFailures ? (
              <Badge tone="warn">
                {f.toolFailures} of {plural(f.calls, 'call')} failed
              </Badge>
            ) : null}
          </div>
          {f.lastError ? (
            <p className="small wrap">
              <code>{f.lastError.code}</code> {f.lastError.message}{' '}
              <a className="muted" href={hrefFor('traces', f.lastError.callId)}>
                {formatAgo(Math.max(0, props.now - f.lastError.at))}
              </a>
            </p>
          ) : f.breakerError ? (
            <p className="muted small wrap">Breaker's last error: {f.breakerError}</p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export function ActivityCard(): React.JSX.Element {
  const usage = useUsage();
  const breakers = useBreakers();
  const now = useNow(5_000);
  if (usage.isPending || breakers.isPending)
    return (
      <section className="card span-all">
        <Loading what="activity" />
      </section>
    );
  if (usage.isError)
    return (
      <section className="card span-all">
        <ErrorState what="usage" error={usage.error} onRetry={() => void usage.refetch()} />
      </section>
    );
  if (breakers.isError)
    return (
      <section className="card span-all">
        <ErrorState what="breakers" error={breakers.error} onRetry={() => void breakers.refetch()} />
      </section>
    );

  const series = totalPerMinute(usage.data);
  const current = series[series.length - 1];
  const failing = failingTools(usage.data, breakers.data, now);
  const total = series.reduce((n, p) => n + p.calls, 0);
  const counts = sumCounts(series);
  return (
    <section className="card span-all" aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <div className="grid-2">
        <div>
          <p className="big-number" data-testid="calls-this-minute">
            {current?.calls ?? 0}{' '}
            <span className="muted small">{current?.calls === 1 ? 'call' : 'calls'} this minute</span>
          </p>
          {series.length ? (
            <p className="muted small" data-testid="calls-window">
              {plural(total, 'call')} in the last {series.length} minutes{total ? `: ${describeCounts(counts)}` : ''}. A
              call is one request, however many attempts it took.
            </p>
          ) : null}
          {total > 0 ? (
            <figure
              className="chart"
              role="img"
              aria-label={
                `Calls per minute over the last ${series.length} minutes, by how they ` +
                `ended: ${describeCounts(counts)}`
              }
              data-testid="activity-chart"
            >
              <ResponsiveContainer width="100%" height={200}>
                <BarChart data={series} margin={{ top: 4, right: 8, bottom: 16, left: 8 }}>
                  <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
                  <XAxis
                    dataKey="minute"
                    tickFormatter={hhmm}
                    fontSize={11}
                    minTickGap={30}
                    label={{ value: 'minute (local time)', position: 'insideBottom', offset: -10, fontSize: 11 }}
                  />
                  <YAxis
                    allowDecimals={false}
                    fontSize={11}
                    width={48}
                    label={{ value: 'calls / min', angle: -90, position: 'insideLeft', fontSize: 11, dy: 30 }}
                  />
                  <Tooltip labelFormatter={(m) => `minute ${hhmm(Number(m))}`} cursor={{ fill: 'var(--hover)' }} />
                  <Legend
                    verticalAlign="top"
                    height={28}
                    iconSize={10}
                    wrapperStyle={{ fontSize: 12 }}
                    itemSorter={legendOrder}
                  />
                  {CALL_CLASSES.filter((c) => counts[c] > 0).map((c) => (
                    <Bar
                      key={c}
                      dataKey={c}
                      stackId="calls"
                      fill={CLASS_COLOR[c]}
                      name={CLASS_LEGEND[c]}
                      isAnimationActive={false}
                    />
                  ))}
                </BarChart>
              </ResponsiveContainer>
            </figure>
          ) : (
            <p className="muted">No calls in the last 30 minutes. Connect an agent or try a tool on the Tools page.</p>
          )}
        </div>
        <div>
          <h3>Failing right now</h3>
          <p className="muted small">
            Tools whose own runs failed in the last 5 minutes, or whose breaker is open. A person's denials, the
            caller's mistakes and refusals are counted apart, not as the tool failing.
          </p>
          <FailingList failing={failing} now={now} />
        </div>
      </div>
    </section>
  );
}
