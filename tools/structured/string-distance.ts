/** string_distance: Levenshtein edit distance and a normalised similarity, computed in a CPU worker. */
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { structuredDeclaration } from './common';
import { runStructured } from './cpu';

const MAX_CHARS = 20_000;
export const DISTANCE_BOUND_MS = 2000;

export const stringDistance = defineTool({
  id: 'string_distance',
  title: 'String distance',
  description: 'The Levenshtein distance and similarity of a and b, or the candidates closest to a.',
  input: z.object({
    a: z.string().max(MAX_CHARS),
    b: z.string().max(MAX_CHARS).optional(),
    candidates: z.array(z.string().max(MAX_CHARS)).min(1).max(10_000).optional(),
    ignoreCase: z.boolean().default(false),
    top: z.number().int().min(1).max(1000).default(10),
  }),
  ...structuredDeclaration,
  run: async (args, ctx) => {
    if ((args.b === undefined) === (args.candidates === undefined)) {
      throw new ToolCallError(
        'INVALID_ARGUMENT',
        'Give exactly one of "b" (compare two strings) or "candidates" (rank a list).',
        { data: { fields: ['b', 'candidates'] } },
      );
    }
    const { a, b, candidates, ignoreCase, top } = args;
    const value = await runStructured('string.distance', {
      toolId: 'string_distance',
      input: { a, b, candidates, ignoreCase, top },
      boundMs: DISTANCE_BOUND_MS,
      whenBound: 'compare fewer or shorter strings',
      boundHint:
        'Each comparison costs the product of the two lengths: ' +
        'rank fewer candidates per call, or compare shorter strings.',
      signal: ctx.signal,
    });
    return jsonSuccess(value);
  },
});
