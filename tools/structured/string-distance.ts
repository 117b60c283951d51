/** string_distance: Levenshtein edit distance (fastest-levenshtein) and a normalised similarity. */
import { distance } from 'fastest-levenshtein';
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { structuredDeclaration } from './common';

const MAX_CHARS = 20_000;

/** 1 for equal strings, 0 when every character differs: 1 − distance / longer length. */
export function similarity(a: string, b: string, d = distance(a, b)): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : Number((1 - d / longest).toFixed(6));
}

export const stringDistance = defineTool({
  id: 'string_distance',
  title: 'String distance',
  description:
    'Measures how different two strings are: the Levenshtein edit distance (insertions, deletions, substitutions) and a similarity from 0 to 1. With "candidates" instead of "b", ranks the candidates by closeness to "a".',
  input: z.object({
    a: z.string().max(MAX_CHARS).describe('The first string (or the query when ranking candidates).'),
    b: z.string().max(MAX_CHARS).optional().describe('The second string. Give this or "candidates".'),
    candidates: z
      .array(z.string().max(MAX_CHARS))
      .min(1)
      .max(10_000)
      .optional()
      .describe('Strings to rank by closeness to "a".'),
    ignoreCase: z.boolean().default(false).describe('Compare case-insensitively.'),
    top: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(10)
      .describe('With candidates: return this many closest (default 10).'),
  }),
  ...structuredDeclaration,
  run: (args) => {
    if ((args.b === undefined) === (args.candidates === undefined)) {
      throw new ToolCallError(
        'INVALID_ARGUMENT',
        'Give exactly one of "b" (compare two strings) or "candidates" (rank a list).',
        { data: { fields: ['b', 'candidates'] } },
      );
    }
    const fold = (s: string) => (args.ignoreCase ? s.toLowerCase() : s);
    const a = fold(args.a);
    if (args.b !== undefined) {
      const b = fold(args.b);
      const d = distance(a, b);
      return jsonSuccess({ distance: d, similarity: similarity(a, b, d), lengths: [args.a.length, args.b.length] });
    }
    const ranked = (args.candidates ?? [])
      .map((candidate, index) => {
        const c = fold(candidate);
        const d = distance(a, c);
        return { candidate, index, distance: d, similarity: similarity(a, c, d) };
      })
      .sort((x, y) => x.distance - y.distance || y.similarity - x.similarity || x.index - y.index)
      .slice(0, args.top);
    return jsonSuccess({ closest: ranked[0]?.candidate ?? null, ranked });
  },
});
