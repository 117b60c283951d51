/**
 * The newest span events seen on the live stream, per query client. A usage report answers for the
 * moment its request ran; spans that streamed in while it was on the way are folded into it again
 * from here (by sequence number), so replacing the cache with a report never drops a call.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { NumberedSpan } from './usage-aggregate';

/** Far more than can stream in during one request at the rates the UI is built for (50 calls/s). */
const KEEP = 2_000;

const byClient = new WeakMap<QueryClient, NumberedSpan[]>();

export function rememberSpans(client: QueryClient, spans: readonly NumberedSpan[]): void {
  if (spans.length === 0) return;
  const list = byClient.get(client) ?? [];
  list.push(...spans);
  if (list.length > KEEP) list.splice(0, list.length - KEEP);
  byClient.set(client, list);
}

export function liveSpans(client: QueryClient): readonly NumberedSpan[] {
  return byClient.get(client) ?? [];
}

/** After the event stream reconnects: the host may have restarted, and its numbering with it. */
export function forgetSpans(client: QueryClient): void {
  byClient.delete(client);
}
