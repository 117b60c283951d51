/** text_diff: a unified diff of two texts (the `diff` package) with line statistics. */
import { formatPatch, structuredPatch } from 'diff';
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { structuredDeclaration } from './common';

const MAX_CHARS = 1_000_000;
const DIFF_BUDGET_MS = 5000;

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
  run: (args) => {
    const patch = structuredPatch(args.oldName, args.newName, args.oldText, args.newText, undefined, undefined, {
      context: args.context,
      ignoreWhitespace: args.ignoreWhitespace,
      timeout: DIFF_BUDGET_MS,
    });
    if (!patch) {
      throw new ToolCallError('TIMEOUT', `The texts are too different to diff within ${DIFF_BUDGET_MS} ms.`, {
        hint: 'Diff smaller parts of the texts (e.g. one section at a time).',
      });
    }
    let added = 0;
    let removed = 0;
    for (const hunk of patch.hunks) {
      for (const line of hunk.lines) {
        if (line.startsWith('+')) added += 1;
        else if (line.startsWith('-')) removed += 1;
      }
    }
    const identical = patch.hunks.length === 0;
    const unified = identical
      ? ''
      : formatPatch(patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true });
    return jsonSuccess({ identical, added, removed, hunks: patch.hunks.length, diff: unified });
  },
});
