/**
 * The span stream as a virtualised list: only the rows in view (plus a few) are in the DOM, so ten
 * thousand spans with fifty new ones a second stay smooth. Each row is a button that opens the call.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { Span } from '../../../../shared/contract';
import { formatClock, formatDuration } from '../../components/format';
import { OutcomeBadge } from './OutcomeBadge';
import { NOT_RUN_TITLE, attemptLabel } from './attempt-label';

const ROW_HEIGHT = 34;

export function SpanList(props: {
  spans: readonly Span[];
  selectedCallId: string | undefined;
  onSelect(callId: string): void;
}): React.JSX.Element {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: props.spans.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    getItemKey: (i) => props.spans[i]?.spanId ?? i,
  });
  return (
    <div className="span-table" data-testid="span-list">
      <div className="span-row span-head" aria-hidden="true">
        <span>Time</span>
        <span>Tool</span>
        <span>Outcome</span>
        <span>Try</span>
        <span>Duration</span>
        <span>Error</span>
        <span>Call</span>
      </div>
      <div
        ref={scroller}
        className="span-scroll"
        tabIndex={-1}
        aria-label={`${props.spans.length} spans, newest first`}
        role="region"
      >
        <ul className="span-rows" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((row) => {
            const s = props.spans[row.index];
            if (!s) return null;
            return (
              <li
                key={row.key}
                style={{ transform: `translateY(${row.start}px)`, height: ROW_HEIGHT }}
                className="span-row-holder"
              >
                <button
                  type="button"
                  className="span-row"
                  aria-pressed={s.callId === props.selectedCallId}
                  aria-label={
                    `${s.toolId} ${s.outcome}${s.errorCode ? ` ${s.errorCode}` : ''}, ` +
                    `${s.attempt === 0 ? 'not run' : `attempt ${s.attempt}`}, ${formatDuration(s.durationMs)}, ` +
                    `at ${formatClock(s.startedAt)}, call ${s.callId}`
                  }
                  onClick={() => props.onSelect(s.callId)}
                >
                  <span className="mono">{formatClock(s.startedAt)}</span>
                  <span className="mono ellipsis">{s.toolId}</span>
                  <span>
                    <OutcomeBadge outcome={s.outcome} />
                  </span>
                  <span title={s.attempt === 0 ? NOT_RUN_TITLE : undefined}>{attemptLabel(s.attempt)}</span>
                  <span className="mono">{formatDuration(s.durationMs)}</span>
                  <span className="mono ellipsis">{s.errorCode ?? ''}</span>
                  <span className="mono muted ellipsis">{s.callId}</span>
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}
