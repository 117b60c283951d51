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
  description:
    'Compares two texts line by line and returns a unified diff (like `diff -u`) plus statistics: lines added, removed, and the number of hunks.',
  input: z.object({
    oldText: z.string().max(MAX_CHARS).describe('The original text (at most 1,000,000 characters).'),
    newText: z.string().max(MAX_CHARS).describe('The changed text (at most 1,000,000 characters).'),
    oldName: z.string().max(200).default('a').describe('Label of the original in the diff header.'),
    newName: z.string().max(200).default('b').describe('Label of the changed text in the diff header.'),
    context: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(3)
      .describe('Unchanged lines shown around each change (0–100, default 3).'),
    ignoreWhitespace: z
      .boolean()
      .default(false)
      .describe('Treat lines that differ only in leading or trailing whitespace as equal.'),
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
