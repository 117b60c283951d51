/** One tool's breaker: state, cooldown countdown, last error, reset, and its timeline. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BreakerView } from '../../../../shared/contract';
import { describeError } from '../../api/host-request-error';
import { useCallback, useEffect } from 'react';
import { formatClock, formatCountdown } from '../../components/format';
import { hrefFor } from '../../router/hash-route';
import { useApi } from '../../state/api-context';
import { queryKeys } from '../../state/query-keys';
import { BreakerStateBadge } from './BreakerStateBadge';
import { BreakerTimeline } from './BreakerTimeline';
import { breakerTool } from './breaker-tool';

/**
 * An open breaker's cooldown: when it ends the breaker admits one probe call (it is HALF_OPEN from
 * then on, as its timeline records). When the countdown runs out the view is fetched again, so
 * the badge moves to HALF_OPEN at the time the timeline says.
 */
function Cooldown(props: {
  view: BreakerView;
  fetchedAt: number;
  now: number;
  onOver(): void;
}): React.JSX.Element | null {
  const { view, onOver } = props;
  const deadline = view.probeAt ?? props.fetchedAt + view.cooldownRemainingMs;
  const left = deadline - props.now;
  const open = view.state === 'OPEN';
  const over = open && left <= 0;
  useEffect(() => {
    if (over) onOver();
  }, [over, onOver]);
  if (!open) return null;
  return (
    <p className="cooldown" data-testid="cooldown">
      {left > 0 ? (
        <>
          Probe admitted in <strong className="mono">{formatCountdown(left)}</strong>{' '}
          <span className="muted small">
            (at {formatClock(deadline).slice(0, 8)}: the first call after that is the probe)
          </span>
        </>
      ) : (
        `Cooldown over at ${formatClock(deadline).slice(0, 8)}: the breaker is HALF_OPEN and admits the next call as its probe.`
      )}
    </p>
  );
}

export function BreakerCard(props: { view: BreakerView; fetchedAt: number; now: number }): React.JSX.Element {
  const { view } = props;
  const api = useApi();
  const client = useQueryClient();
  const reset = useMutation({
    mutationFn: () => api.resetBreaker({ toolId: view.toolId }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.breakers }),
  });
  const cooldownOver = useCallback(() => void client.invalidateQueries({ queryKey: queryKeys.breakers }), [client]);
  return (
    <section
      className={`card breaker-card state-${view.state}`}
      aria-labelledby={`breaker-${view.toolId}`}
      data-testid={`breaker-${view.toolId}`}
    >
      <header className="row spread">
        <h2 id={`breaker-${view.toolId}`} className="row">
          <a href={hrefFor('tools', breakerTool(view))}>
            <code>{breakerTool(view)}</code>
          </a>
          {view.target !== undefined ? (
            <span className="muted small" title="A digest of the target: its address is never shown or stored">
              target <code>{view.target}</code>
            </span>
          ) : null}
          <BreakerStateBadge state={view.state} />
        </h2>
        <button
          type="button"
          className="secondary"
          onClick={() => reset.mutate()}
          disabled={reset.isPending || (view.state === 'CLOSED' && view.consecutiveFailures === 0)}
          aria-label={`Reset the breaker of ${view.toolId}`}
        >
          {reset.isPending ? 'Resetting…' : 'Reset'}
        </button>
      </header>
      <p className="muted small">
        {view.consecutiveFailures} consecutive failure{view.consecutiveFailures === 1 ? '' : 's'}
      </p>
      <Cooldown view={view} fetchedAt={props.fetchedAt} now={props.now} onOver={cooldownOver} />
      {view.lastError ? (
        <p className="wrap">
          <span className="muted">Last error:</span> {view.lastError}
        </p>
      ) : null}
      {reset.isError ? (
        <p className="field-error" role="alert">
          Reset failed: {describeError(reset.error)}
        </p>
      ) : null}
      {reset.data && !reset.data.ok ? (
        <p className="field-error" role="alert">
          The host did not reset this breaker.
        </p>
      ) : null}
      <BreakerTimeline view={view} now={props.now} />
    </section>
  );
}
