/** Calls per minute over the last half hour and the tools failing right now. */
import { Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Badge } from '../../components/Badge';
import { ErrorState } from '../../components/ErrorState';
import { Loading } from '../../components/Loading';
import { formatClock } from '../../components/format';
import { useNow } from '../../components/use-now';
import { hrefFor } from '../../router/hash-route';
import { useBreakers, useUsage } from '../../state/queries';
import { failingTools, totalPerMinute } from './activity';

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
  return (
    <section className="card span-all" aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <div className="grid-2">
        <div>
          <p className="big-number" data-testid="calls-this-minute">
            {current?.calls ?? 0} <span className="muted small">calls this minute</span>
          </p>
          {series.length ? (
            <p className="muted small" data-testid="calls-window">
              {series.reduce((n, p) => n + p.calls, 0)} calls, {series.reduce((n, p) => n + p.failures, 0)} failed in
              the last {series.length} minutes
            </p>
          ) : null}
          {series.some((p) => p.calls > 0) ? (
            <div className="sparkline" role="img" aria-label="Calls per minute over the last 30 minutes">
              <ResponsiveContainer width="100%" height={90}>
                <LineChart data={series} margin={{ top: 4, right: 4, bottom: 0, left: -28 }}>
                  <XAxis
                    dataKey="minute"
                    tickFormatter={(m: number) => formatClock(m).slice(0, 5)}
                    fontSize={11}
                    minTickGap={30}
                  />
                  <YAxis allowDecimals={false} fontSize={11} width={50} />
                  <Tooltip labelFormatter={(m) => formatClock(Number(m)).slice(0, 5)} />
                  <Line
                    type="monotone"
                    dataKey="calls"
                    stroke="var(--accent)"
                    dot={false}
                    isAnimationActive={false}
                    name="calls"
                  />
                  <Line
                    type="monotone"
                    dataKey="failures"
                    stroke="var(--bad)"
                    dot={false}
                    isAnimationActive={false}
                    name="failures"
                  />
                </LineChart>
              </ResponsiveContainer>
            </div>
          ) : (
            <p className="muted">No calls in the last 30 minutes. Connect an agent or try a tool on the Tools page.</p>
          )}
        </div>
        <div>
          <h3>Failing right now</h3>
          {failing.length === 0 ? (
            <p className="muted" data-testid="no-failing-tools">
              No tool failed in the last 5 minutes and every breaker is closed.
            </p>
          ) : (
            <ul className="plain-list" data-testid="failing-tools">
              {failing.map((f) => (
                <li key={f.toolId}>
                  <div className="row">
                    <a href={hrefFor(f.breaker ? 'breakers' : 'latency', ...(f.breaker ? [] : [f.toolId]))}>
                      <code>{f.toolId}</code>
                    </a>
                    {f.breaker ? <Badge tone="bad">breaker {f.breaker}</Badge> : null}
                    {f.recentFailures ? <Badge tone="warn">{f.recentFailures} failed</Badge> : null}
                  </div>
                  {f.lastError ? <p className="muted small wrap">{f.lastError}</p> : null}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}
