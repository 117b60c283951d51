/**
 * Applies a breaker transition event to the cached breaker views at once, so the badge and the
 * timeline move with the event; the cooldown and last error come with the refetch that follows.
 */
import type { BreakerTransition, BreakerView } from '../../../shared/contract';

/** Transitions kept per tool in the page; the host keeps the full history. */
export const MAX_TRANSITIONS = 200;

export function applyTransition(views: readonly BreakerView[], t: BreakerTransition): BreakerView[] {
  const existing = views.find((v) => v.toolId === t.toolId);
  const base: BreakerView = existing ?? {
    toolId: t.toolId,
    state: t.from,
    consecutiveFailures: 0,
    cooldownRemainingMs: 0,
    transitions: [],
  };
  // An event the refetched view already holds, arriving late, must not move the state back.
  if (base.transitions.some((x) => x.at === t.at && x.from === t.from && x.to === t.to)) return views.slice();
  const newest = base.transitions[base.transitions.length - 1];
  if (newest && t.at < newest.at) {
    // Older than what the view shows: it belongs in the timeline, but the state stays.
    const transitions = [...base.transitions, t].sort((a, b) => a.at - b.at).slice(-MAX_TRANSITIONS);
    const older: BreakerView = { ...base, transitions };
    return existing ? views.map((v) => (v === existing ? older : v)) : [...views, older];
  }
  const transitions = [...base.transitions, t].slice(-MAX_TRANSITIONS);
  const { probeAt, ...rest } = base;
  const updated: BreakerView =
    t.to === 'CLOSED'
      ? { ...rest, state: t.to, transitions, cooldownRemainingMs: 0, consecutiveFailures: 0 }
      : { ...base, state: t.to, transitions };
  void probeAt;
  return existing ? views.map((v) => (v === existing ? updated : v)) : [...views, updated];
}
