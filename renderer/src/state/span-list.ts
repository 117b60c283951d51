/**
 * The span lists the pages keep: newest first, capped, so a busy host cannot grow the page's memory
 * without bound. Pure functions, shared by the event bridge and the Traces page.
 */
import type { Span } from '../../../shared/contract';
import type { SpanFilter } from './query-keys';

/** How many spans any one list keeps in memory. */
export const SPAN_LIST_CAP = 10_000;

export function spanMatches(filter: Omit<SpanFilter, 'limit'>, span: Span): boolean {
  if (filter.toolId && span.toolId !== filter.toolId) return false;
  if (filter.outcome && span.outcome !== filter.outcome) return false;
  if (filter.callId && span.callId !== filter.callId) return false;
  if (filter.since !== undefined && span.startedAt < filter.since) return false;
  return true;
}

/**
 * Puts `incoming` (oldest first, as events arrive) in front of `list` (newest first). A span already
 * in the list (same spanId, e.g. delivered while the initial fetch was in flight) is not repeated.
 */
export function prependSpans(list: readonly Span[], incoming: readonly Span[], cap = SPAN_LIST_CAP): Span[] {
  if (incoming.length === 0) return list as Span[];
  const known = new Set<string>();
  // Duplicates can only be among the newest entries: look at as many as arrived.
  for (let i = 0; i < Math.min(list.length, incoming.length * 2); i++) known.add(list[i]!.spanId);
  const fresh: Span[] = [];
  for (let i = incoming.length - 1; i >= 0; i--) {
    const s = incoming[i]!;
    if (!known.has(s.spanId)) {
      known.add(s.spanId);
      fresh.push(s);
    }
  }
  const next = fresh.concat(list);
  if (next.length > cap) next.length = cap;
  return next;
}

/**
 * What a list becomes when a fetch of it answers: the fetched spans together with those the list
 * already holds (events applied while the fetch was on its way, and older spans a refetch with a
 * smaller limit would drop), each once, newest first, capped. A refetch never loses a span the page
 * had: spans are final once recorded, so the union is the truth.
 */
export function mergeFetchedSpans(held: readonly Span[], fetched: readonly Span[], cap = SPAN_LIST_CAP): Span[] {
  if (held.length === 0) return fetched.length > cap ? fetched.slice(0, cap) : (fetched as Span[]);
  const byId = new Map<string, Span>();
  for (const s of held) byId.set(s.spanId, s);
  for (const s of fetched) byId.set(s.spanId, s);
  const merged = [...byId.values()].sort((a, b) => b.startedAt - a.startedAt);
  if (merged.length > cap) merged.length = cap;
  return merged;
}

/**
 * What a fetch of the list gives: its answer merged with what the list holds once the answer is
 * here, so spans streamed in while the fetch was on its way stay (`held` is read after it).
 * `fetch(limit)` asks for the newest `limit` spans, or for the filter's own number without one.
 * A list that already holds spans (a refetch: the live stream came back after a gap) asks for the
 * newest `cap`: with fewer, spans of a gap longer than that would be missing between the held ones
 * and the fetched ones, and nothing on the page would say so. With `cap`, a held span older than
 * every fetched one is cut by the cap before it could stand beside such a hole.
 */
export async function fetchIntoList(
  fetch: (limit?: number) => Promise<readonly Span[]>,
  held: () => readonly Span[] | undefined,
  cap = SPAN_LIST_CAP,
): Promise<Span[]> {
  const fetched = await ((held()?.length ?? 0) > 0 ? fetch(cap) : fetch());
  return mergeFetchedSpans(held() ?? [], fetched, cap);
}
