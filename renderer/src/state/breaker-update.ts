/**
 * Applies a breaker transition event to the cached breaker views at once, so the badge and the
 * timeline move with the event; the cooldown and last error come with the refetch that follows.
 */
import type { BreakerTransition, BreakerView } from '../../../shared/contract';

/** Transitions kept per tool in the page; the host keeps the full history. */
export const MAX_TRANSITIONS = 200;

export function applyTransition(views: readonly BreakerView[], t: BreakerTransition): BreakerView[] {
  const existing = views.find((v) => v.toolId === t.toolId);
  const base: BreakerView = existing ?? { toolId: t.toolId, state: t.from, consecutiveFailures: 0, cooldownRemainingMs: 0, transitions: [] };
  const duplicate = base.transitions.some((x) => x.at === t.at && x.from === t.from && x.to === t.to);
  const transitions = duplicate ? base.transitions : [...base.transitions, t].slice(-MAX_TRANSITIONS);
  const { probeAt, ...rest } = base;
  const updated: BreakerView = t.to === 'CLOSED' ? { ...rest, state: t.to, transitions, cooldownRemainingMs: 0, consecutiveFailures: 0 } : { ...base, state: t.to, transitions };
  void probeAt;
  return existing ? views.map((v) => (v === existing ? updated : v)) : [...views, updated];
}
