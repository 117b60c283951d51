/** text_diff: a unified diff of two texts with line statistics, computed in a CPU worker. */
import { z } from 'zod';
import { jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { structuredDeclaration } from './common';
import { runStructured } from './cpu';

const MAX_CHARS = 1_000_000;
export const DIFF_BOUND_MS = 5000;

export const textDiff = defineTool({
  id: 'text_diff',
  title: 'Diff two texts',
  description: 'A unified diff (as diff -u) of two texts, with lines added and removed.',
  input: z.object({
    oldText: z.string().max(MAX_CHARS),
    newText: z.string().max(MAX_CHARS),
    oldName: z.string().max(200).default('a'),
    newName: z.string().max(200).default('b'),
    context: z.number().int().min(0).max(100).default(3).describe('Unchanged lines around a change.'),
    ignoreWhitespace: z.boolean().default(false).describe('At the start and end of lines.'),
  }),
  ...structuredDeclaration,
  run: async (args, ctx) =>
    jsonSuccess(
      await runStructured('text.diff', {
        toolId: 'text_diff',
        input: args,
        boundMs: DIFF_BOUND_MS,
        whenBound: 'diff smaller parts of the texts',
        boundHint: 'The texts are too different to diff in time: diff one section at a time.',
        signal: ctx.signal,
      }),
    ),
});
