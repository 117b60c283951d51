/** text_diff's heavy part, run in a CPU worker: a unified diff (the `diff` package) with line statistics. */
import { formatPatch, structuredPatch } from 'diff';

export interface DiffInput {
  oldText: string;
  newText: string;
  oldName: string;
  newName: string;
  context: number;
  ignoreWhitespace: boolean;
}

export interface DiffOutput {
  identical: boolean;
  added: number;
  removed: number;
  hunks: number;
  diff: string;
}

export function diffTask(input: DiffInput): DiffOutput {
  const patch = structuredPatch(input.oldName, input.newName, input.oldText, input.newText, undefined, undefined, {
    context: input.context,
    ignoreWhitespace: input.ignoreWhitespace,
  });
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
  }
  const identical = patch.hunks.length === 0;
  const diff = identical
    ? ''
    : formatPatch(patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true });
  return { identical, added, removed, hunks: patch.hunks.length, diff };
}
