/** How each call class looks in charts and summaries: its colour, its words, in one order everywhere. */
import { CALL_CLASSES, CALL_CLASS_WORDS, type CallClass, type ClassCounts, plural } from '../../../shared/call-classes';

export const CLASS_COLOR: Readonly<Record<CallClass, string>> = {
  succeeded: 'var(--good)',
  toolFailed: 'var(--bad)',
  callerMistake: 'var(--warn)',
  denied: 'var(--cls-denied)',
  unanswered: 'var(--cls-unanswered)',
  policyRefused: 'var(--cls-policy)',
  refused: 'var(--cls-refused)',
  cancelled: 'var(--cls-cancelled)',
};

/** The legend's words for a class (a series name, not a count). */
export const CLASS_LEGEND: Readonly<Record<CallClass, string>> = {
  succeeded: 'succeeded',
  toolFailed: 'tool failed',
  callerMistake: 'caller mistake',
  denied: 'denied by a person',
  unanswered: 'no one answered',
  policyRefused: 'refused by policy',
  refused: 'refused (breaker, limiter, environment)',
  cancelled: 'cancelled',
};

/** "3 succeeded, 1 tool failure, 2 caller mistakes": every class with calls, in the shared order. */
export function describeCounts(counts: ClassCounts): string {
  const parts = CALL_CLASSES.filter((c) => counts[c] > 0).map((c) =>
    plural(counts[c], CALL_CLASS_WORDS[c].one, CALL_CLASS_WORDS[c].many),
  );
  return parts.length ? parts.join(', ') : 'none';
}

/** Legend entries in the classes' order (recharts sorts them by name otherwise); other series come after. */
export function legendOrder(item: { dataKey?: unknown }): number {
  const i = (CALL_CLASSES as readonly unknown[]).indexOf(item.dataKey);
  return i === -1 ? CALL_CLASSES.length : i;
}

export { CALL_CLASSES, type CallClass, plural };
