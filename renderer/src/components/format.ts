/** How numbers, times and durations read on every page. */

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1_000);
  if (minutes < 60) return `${minutes} min ${seconds} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A countdown: "0:42", "12:05". */
/**
 * What is left of a card's time. `now` is the last once-a-second tick, so it can be older than the
 * card: never more than the whole timeout (not "2:01 left" on a 2-minute card).
 */
export function timeLeft(card: { requestedAt: number; expiresAt: number }, now: number): number {
  return Math.min(card.expiresAt - now, card.expiresAt - card.requestedAt);
}

export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1_000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

export function formatClock(at: number): string {
  const d = new Date(at);
  const ms = String(d.getMilliseconds()).padStart(3, '0');
  return `${d.toLocaleTimeString(undefined, { hour12: false })}.${ms}`;
}

export function formatDateTime(at: number): string {
  return new Date(at).toLocaleString(undefined, { hour12: false });
}

export function formatAgo(ms: number): string {
  if (ms < 5_000) return 'just now';
  if (ms < 60_000) return `${Math.round(ms / 1_000)} s ago`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ago`;
  return `${Math.floor(ms / 3_600_000)} h ago`;
}

export function formatPercent(ratio: number): string {
  if (!Number.isFinite(ratio)) return '—';
  return `${(ratio * 100).toFixed(ratio === 1 || ratio === 0 ? 0 : 1)} %`;
}

export function shortId(id: string, length = 8): string {
  return id.length <= length ? id : id.slice(0, length);
}

export function prettyJson(value: unknown): string {
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Who asked for a call: "claude-code 1.0 mcp (session-id)". */
export function formatRequester(r: { kind: string; id?: string | undefined; label?: string | undefined }): string {
  return [r.label, r.kind, r.id ? `(${r.id})` : undefined].filter(Boolean).join(' ');
}
