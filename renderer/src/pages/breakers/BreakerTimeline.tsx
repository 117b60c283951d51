/**
 * A breaker's history: an SVG strip coloured by state over the window (the right edge is now),
 * and the transitions as a list a screen reader can read.
 */
import type { BreakerView } from '../../../../shared/contract';
import { formatClock } from '../../components/format';
import { segmentsOf, timelineWindow } from './timeline-segments';

const WIDTH = 1000;
const HEIGHT = 20;
const SHOWN_TRANSITIONS = 8;

export function BreakerTimeline(props: { view: BreakerView; now: number }): React.JSX.Element {
  const { view, now } = props;
  const { start, end } = timelineWindow(view.transitions, now);
  const x = (t: number) => ((t - start) / Math.max(1, end - start)) * WIDTH;
  const recent = view.transitions.slice(-SHOWN_TRANSITIONS).reverse();
  return (
    <div className="timeline" data-testid={`timeline-${view.toolId}`}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" className="timeline-strip" aria-hidden="true">
        {segmentsOf(view, start, end).map((s, i) => (
          <rect
            key={i}
            x={x(s.from)}
            width={Math.max(1, x(s.to) - x(s.from))}
            y={0}
            height={HEIGHT}
            className={`seg-${s.state}`}
          >
            <title>
              {s.state} {formatClock(s.from)} – {formatClock(s.to)}
            </title>
          </rect>
        ))}
        {view.transitions.map((t, i) => (
          <line key={i} x1={x(t.at)} x2={x(t.at)} y1={0} y2={HEIGHT} className="seg-mark" />
        ))}
      </svg>
      <div className="timeline-axis muted small" aria-hidden="true">
        <span>{formatClock(start).slice(0, 8)}</span>
        <span>now</span>
      </div>
      {recent.length === 0 ? (
        <p className="muted small">No transitions recorded.</p>
      ) : (
        <ol className="transition-list" aria-label={`State changes of ${view.toolId}, newest first`}>
          {recent.map((t, i) => (
            <li key={`${t.at}-${i}`}>
              <span className="mono">{formatClock(t.at)}</span>{' '}
              <span className={`state-text state-${t.from}`}>{t.from}</span> →{' '}
              <span className={`state-text state-${t.to}`}>{t.to}</span> <span className="muted">{t.cause}</span>
            </li>
          ))}
        </ol>
      )}
      {view.transitions.length > SHOWN_TRANSITIONS ? (
        <p className="muted small">{view.transitions.length - SHOWN_TRANSITIONS} older transitions not shown.</p>
      ) : null}
    </div>
  );
}
