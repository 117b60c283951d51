/**
 * The device's recent logcat, newest last: a refresh button, the number of lines, a text filter.
 * The page refreshes it after each tap or swipe. Up to 2000 lines, so the list is virtualised:
 * only the lines in view are in the DOM.
 */
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { formatClock } from '../../components/format';
import { QueryState } from '../../components/QueryState';
import { useApi } from '../../state/api-context';
import { queryKeys } from '../../state/query-keys';
import { filterLines, logLevel } from './logcat-lines';

const LINE_HEIGHT = 18;
const LINE_CHOICES = [200, 500, 2000] as const;

function LogLines(props: { lines: readonly string[] }): React.JSX.Element {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: props.lines.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => LINE_HEIGHT,
    overscan: 20,
  });
  // Logcat reads bottom-up: land on the newest line whenever a new batch arrives.
  useEffect(() => {
    if (props.lines.length > 0) virtualizer.scrollToIndex(props.lines.length - 1, { align: 'end' });
  }, [props.lines, virtualizer]);
  return (
    <div
      ref={scroller}
      className="logcat-scroll"
      tabIndex={0}
      role="region"
      aria-label={`Logcat, ${props.lines.length} lines, newest last`}
      data-testid="logcat"
    >
      <div className="logcat-lines" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const line = props.lines[row.index] ?? '';
          return (
            <div
              key={row.key}
              className={`logcat-line level-${logLevel(line) ?? 'none'}`}
              style={{ transform: `translateY(${row.start}px)`, height: LINE_HEIGHT }}
            >
              {line}
            </div>
          );
        })}
      </div>
    </div>
  );
}

export function LogcatPane(props: { serial: string }): React.JSX.Element {
  const api = useApi();
  const [lines, setLines] = useState<number>(200);
  const [filter, setFilter] = useState('');
  const query = useQuery({
    queryKey: queryKeys.deviceLogcat(props.serial, lines),
    queryFn: () => api.deviceLogcat({ serial: props.serial, lines }),
    // Refreshed on demand and after each tap or swipe; a timer would only move the scroll position.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const shown = useMemo(() => filterLines(query.data?.lines ?? [], filter), [query.data, filter]);
  return (
    <section className="card logcat-card" aria-labelledby="logcat-title">
      <div className="row spread">
        <h2 id="logcat-title">Logcat</h2>
        <span className="muted small" aria-live="off">
          {query.dataUpdatedAt ? `updated ${formatClock(query.dataUpdatedAt)}` : ''}
        </span>
      </div>
      <div className="filter-bar">
        <label>
          Lines
          <select value={lines} onChange={(e) => setLines(Number(e.target.value))}>
            {LINE_CHOICES.map((n) => (
              <option key={n} value={n}>
                last {n}
              </option>
            ))}
          </select>
        </label>
        <label>
          Filter
          <input type="search" value={filter} placeholder="tag or text" onChange={(e) => setFilter(e.target.value)} />
        </label>
        <button type="button" className="secondary" onClick={() => void query.refetch()} disabled={query.isFetching}>
          {query.isFetching ? 'Refreshing…' : 'Refresh logcat'}
        </button>
      </div>
      <QueryState query={query} what="logcat">
        {(data) =>
          data.lines.length === 0 ? (
            <p className="muted">The device returned no log lines.</p>
          ) : (
            <>
              {filter && shown.length === 0 ? <p className="muted">No line matches “{filter}”.</p> : null}
              <LogLines lines={shown} />
            </>
          )
        }
      </QueryState>
    </section>
  );
}
