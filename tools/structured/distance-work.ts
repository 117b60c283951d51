/**
 * string_distance's heavy part, run in a CPU worker: Levenshtein distances (fastest-levenshtein)
 * cost the product of the two lengths, so 20,000 characters against many candidates takes seconds.
 */
import { distance } from 'fastest-levenshtein';

/** 1 for equal strings, 0 when every character differs: 1 − distance / longer length. */
export function similarity(a: string, b: string, d = distance(a, b)): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : Number((1 - d / longest).toFixed(6));
}

export interface DistanceInput {
  a: string;
  b: string | undefined;
  candidates: string[] | undefined;
  ignoreCase: boolean;
  top: number;
}

export interface RankedCandidate {
  candidate: string;
  index: number;
  distance: number;
  similarity: number;
}

export type DistanceOutput =
  | { distance: number; similarity: number; lengths: [number, number] }
  | { closest: string | null; ranked: RankedCandidate[] };

export function distanceTask(input: DistanceInput): DistanceOutput {
  const fold = (s: string) => (input.ignoreCase ? s.toLowerCase() : s);
  const a = fold(input.a);
  if (input.b !== undefined) {
    const b = fold(input.b);
    const d = distance(a, b);
    return { distance: d, similarity: similarity(a, b, d), lengths: [input.a.length, input.b.length] };
  }
  const ranked = (input.candidates ?? [])
    .map((candidate, index) => {
      const c = fold(candidate);
      const d = distance(a, c);
      return { candidate, index, distance: d, similarity: similarity(a, c, d) };
    })
    .sort((x, y) => x.distance - y.distance || y.similarity - x.similarity || x.index - y.index)
    .slice(0, input.top);
  return { closest: ranked[0]?.candidate ?? null, ranked };
}
