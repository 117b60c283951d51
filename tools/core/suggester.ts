/**
 * Near-name suggestions for an unknown tool id (docs/architecture.md#registry): at most three close
 * ids by edit distance, never the whole list.
 */
import { distance } from 'fastest-levenshtein';

export const MAX_SUGGESTIONS = 3;

export function suggestToolIds(unknown: string, known: Iterable<string>, max = MAX_SUGGESTIONS): string[] {
  const wanted = unknown.trim().toLowerCase();
  if (!wanted) return [];
  // Close enough to be a typo or a near guess: a third of the name may differ, at least two edits.
  const budget = Math.max(2, Math.floor(wanted.length / 3));
  const scored: Array<{ id: string; score: number }> = [];
  for (const id of known) {
    const candidate = id.toLowerCase();
    let score = distance(wanted, candidate);
    // A name that contains the guess (or the reverse) is a good hint even when longer: "tap" → "ui_tap".
    if (score > budget && wanted.length >= 3 && (candidate.includes(wanted) || wanted.includes(candidate)))
      score = budget;
    if (score <= budget) scored.push({ id, score });
  }
  scored.sort((a, b) => a.score - b.score || a.id.localeCompare(b.id));
  return scored.slice(0, max).map((s) => s.id);
}
