/** The Traces page's filter: what goes to the host, and what is matched in the page. */
import type { Span } from '../../../../shared/contract';
import type { SpanFilter } from '../../state/query-keys';

export const TIME_RANGES = [
  { id: 'all', label: 'All time', ms: undefined },
  { id: '5m', label: 'Last 5 minutes', ms: 5 * 60_000 },
  { id: '1h', label: 'Last hour', ms: 60 * 60_000 },
  { id: '24h', label: 'Last 24 hours', ms: 24 * 60 * 60_000 },
] as const;
export type TimeRangeId = (typeof TIME_RANGES)[number]['id'];

/** Spans fetched when the page opens or the filter changes; live spans are added up to the cap. */
export const INITIAL_SPAN_LIMIT = 5_000;

export interface TraceFilterState {
  toolId: string;
  outcome: '' | Span['outcome'];
  range: TimeRangeId;
  /** Set when the range is picked, so the query key stays stable while spans stream in. */
  since: number | undefined;
  callSearch: string;
}

export const EMPTY_FILTER: TraceFilterState = {
  toolId: '',
  outcome: '',
  range: 'all',
  since: undefined,
  callSearch: '',
};

export function serverFilter(f: TraceFilterState): SpanFilter {
  const filter: SpanFilter = { limit: INITIAL_SPAN_LIMIT };
  if (f.toolId) filter.toolId = f.toolId;
  if (f.outcome) filter.outcome = f.outcome;
  if (f.since !== undefined) filter.since = f.since;
  return filter;
}

export function sinceFor(range: TimeRangeId, now: number): number | undefined {
  const ms = TIME_RANGES.find((r) => r.id === range)?.ms;
  return ms === undefined ? undefined : now - ms;
}

/** The call-id box matches any part of the call id (or the parent's), case-insensitively. */
export function matchesCallSearch(span: Span, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  return span.callId.toLowerCase().includes(q) || (span.parentCallId?.toLowerCase().includes(q) ?? false);
}
