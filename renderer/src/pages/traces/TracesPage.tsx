/**
 * Traces: the live span stream (newest first) with filters, pause, export, and the selected call's
 * attempts. Pausing freezes what is shown while new spans keep arriving underneath.
 */
import { useMemo, useState } from 'react';
import type { Span } from '../../../../shared/contract';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { navigate } from '../../router/hash-route';
import { useSpans, useTools } from '../../state/queries';
import { CallDetail } from './CallDetail';
import { ExportButton } from './ExportButton';
import { SpanList } from './SpanList';
import { TraceFilters } from './TraceFilters';
import { EMPTY_FILTER, matchesCallSearch, serverFilter } from './trace-filter';

export function TracesPage(props: { selectedCallId: string | undefined }): React.JSX.Element {
  const [filter, setFilter] = useState(EMPTY_FILTER);
  const [paused, setPaused] = useState<readonly Span[] | undefined>(undefined);
  const query = useMemo(() => serverFilter(filter), [filter]);
  const spans = useSpans(query);
  const tools = useTools();
  const toolIds = useMemo(() => (tools.data ?? []).map((t) => t.id).sort(), [tools.data]);
  const live = spans.data;
  const source = paused ?? live;
  const shown = useMemo(
    () => (source ?? []).filter((s) => matchesCallSearch(s, filter.callSearch)),
    [source, filter.callSearch],
  );
  const newSincePause = useMemo(() => {
    if (!paused || !live) return 0;
    const newestSeen = paused[0]?.spanId;
    const at = newestSeen === undefined ? -1 : live.findIndex((s) => s.spanId === newestSeen);
    return at === -1 ? live.length : at;
  }, [paused, live]);

  return (
    <>
      <PageHeader
        title="Traces"
        description="One span per attempt of every call, live. Select a row to see the call's attempts."
        actions={
          <>
            <button
              type="button"
              className="secondary"
              aria-pressed={paused !== undefined}
              onClick={() => setPaused(paused ? undefined : (live ?? []))}
            >
              {paused ? `Resume${newSincePause ? ` (${newSincePause} new)` : ''}` : 'Pause'}
            </button>
            <ExportButton filter={query} />
          </>
        }
      />
      <TraceFilters
        filter={filter}
        toolIds={toolIds}
        onChange={(f) => {
          setFilter(f);
          setPaused(undefined);
        }}
      />
      <div className={props.selectedCallId ? 'split traces-split' : ''}>
        <QueryState query={spans} what="spans">
          {() =>
            shown.length === 0 ? (
              <EmptyState title={source?.length ? 'No span matches the filter.' : 'No spans yet.'}>
                {source?.length
                  ? 'Clear a filter to see more.'
                  : 'Every tool call (from an agent over MCP, or Try ' +
                    'it on the Tools page) shows up here as it happens.'}
              </EmptyState>
            ) : (
              <div className="span-pane">
                <p className="muted small" aria-live="off" data-testid="span-count">
                  {shown.length} span{shown.length === 1 ? '' : 's'}
                  {paused ? ' (paused)' : ''}
                </p>
                <SpanList
                  spans={shown}
                  selectedCallId={props.selectedCallId}
                  onSelect={(id) => navigate('traces', id)}
                />
              </div>
            )
          }
        </QueryState>
        {props.selectedCallId ? <CallDetail callId={props.selectedCallId} onClose={() => navigate('traces')} /> : null}
      </div>
    </>
  );
}
