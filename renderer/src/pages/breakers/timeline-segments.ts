/** A breaker's transitions as coloured segments over a time window ending now. */
import type { BreakerTransition, BreakerView } from '../../../../shared/contract';

export interface Segment {
  state: BreakerView['state'];
  from: number;
  to: number;
}

const MIN_WINDOW_MS = 5 * 60_000;

export function timelineWindow(transitions: readonly BreakerTransition[], now: number): { start: number; end: number } {
  const first = transitions[0]?.at ?? now;
  return { start: Math.min(first - 5_000, now - MIN_WINDOW_MS), end: now };
}

export function segmentsOf(view: Pick<BreakerView, 'state' | 'transitions'>, start: number, end: number): Segment[] {
  const ts = [...view.transitions].sort((a, b) => a.at - b.at);
  if (ts.length === 0) return [{ state: view.state, from: start, to: end }];
  const segments: Segment[] = [{ state: ts[0]!.from, from: start, to: ts[0]!.at }];
  for (const [i, t] of ts.entries()) segments.push({ state: t.to, from: t.at, to: ts[i + 1]?.at ?? end });
  return segments
    .filter((s) => s.to > s.from && s.to > start)
    .map((s) => ({ ...s, from: Math.max(s.from, start), to: Math.min(s.to, end) }));
}
