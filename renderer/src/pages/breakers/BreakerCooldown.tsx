/**
 * An open breaker's cooldown: when it ends the breaker admits one probe call (it is HALF_OPEN from
 * then on, as its timeline records). When the countdown runs out the view is fetched again, so
 * the badge moves to HALF_OPEN at the time the timeline says.
 */
import type { BreakerView } from '../../../../shared/contract';
import { useEffect } from 'react';
import { formatClock, formatCountdown } from '../../components/format';
import { probeTime } from './breaker-groups';

export function BreakerCooldown(props: {
  view: BreakerView;
  fetchedAt: number;
  now: number;
  onOver(): void;
}): React.JSX.Element | null {
  const { view, onOver } = props;
  const deadline = probeTime(view, props.fetchedAt);
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
        `Cooldown over at ${formatClock(deadline).slice(0, 8)}: the ` +
        'breaker is HALF_OPEN and admits the next call as its probe.'
      )}
    </p>
  );
}
