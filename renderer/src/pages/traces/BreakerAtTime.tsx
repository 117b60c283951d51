/** The call's breaker (or its tool's breakers) when the call started and ended, with the transitions around it. */
import type { BreakerAtCall } from '../../../../shared/contract';
import { formatClock } from '../../components/format';
import { hrefFor } from '../../router/hash-route';
import { BreakerStateBadge } from '../breakers/BreakerStateBadge';

export function BreakerAtTime(props: { breakers: BreakerAtCall[] }): React.JSX.Element {
  if (props.breakers.length === 0)
    return (
      <p className="muted small" data-testid="breaker-at-time">
        CLOSED: no breaker of this tool had opened or counted a failure around this call.
      </p>
    );
  return (
    <ul className="plain-list" data-testid="breaker-at-time">
      {props.breakers.map((b) => (
        <li key={b.key} className="small">
          <span className="row">
            <a href={hrefFor('breakers')}>
              {b.target ? (
                <>
                  target <code>{b.target}</code>
                </>
              ) : (
                'the tool'
              )}
            </a>
            {b.exact ? null : (
              <span className="muted">(one of the tool's breakers; this call's target is not known)</span>
            )}
            <span>at the start</span> <BreakerStateBadge state={b.atStart} />
            {b.atEnd !== b.atStart ? (
              <>
                <span>after it</span> <BreakerStateBadge state={b.atEnd} />
              </>
            ) : null}
          </span>
          {b.transitions.length ? (
            <ol className="transition-list">
              {b.transitions.map((t, i) => (
                <li key={`${t.at}-${i}`}>
                  <span className="mono">{formatClock(t.at)}</span> {t.from} → {t.to}{' '}
                  <span className="muted">{t.cause}</span>
                </li>
              ))}
            </ol>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
