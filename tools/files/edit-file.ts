/**
 * edit_file: replaces an exact piece of text. The text must occur exactly once unless replaceAll
 * is set; otherwise the error says how often it occurs, where, and how to make it unique.
 */
import { structuredPatch, formatPatch } from 'diff';
import { closest, distance } from 'fastest-levenshtein';
import { z } from 'zod';
import { WORKSPACE_PATH } from '../core/fields';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { AnchoredDir } from './anchored-dir';
import { openForReading } from './confined-open';
import { orFsError } from './fs-errors';
import { type FilesConfig, mutatingDeclaration } from './options';
import { looksBinary, replaceFile, writeAll } from './text-file';

const MAX_DIFF_CHARS = 4000;

function occurrences(haystack: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** The line most like the first line of the missing text, to point the model at a near miss. */
function nearMiss(text: string, oldText: string): string {
  const wanted = oldText
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim();
  const lines = text.split('\n');
  if (!wanted || lines.length > 20_000) return '';
  const trimmed = lines.map((l) => l.trim());
  const best = closest(wanted, trimmed);
  if (distance(wanted, best) > Math.max(3, wanted.length / 2)) return '';
  return ` The most similar line is ${trimmed.indexOf(best) + 1}: "${best.slice(0, 120)}".`;
}

export function editFileTool(config: FilesConfig) {
  return defineTool({
    id: 'edit_file',
    title: 'Edit a file',
    description:
      'Replaces a piece of text in a file and returns a diff. oldText ' +
      'must match exactly, whitespace included, and occur once ' +
      'unless replaceAll.',
    input: z.object({
      path: WORKSPACE_PATH,
      oldText: z.string().min(1),
      newText: z.string(),
      replaceAll: z.boolean().default(false),
    }),
    ...mutatingDeclaration('MEDIUM', false),
    run: async (args) => {
      if (args.oldText === args.newText)
        throw new ToolCallError('INVALID_ARGUMENT', '"oldText" and "newText" are the same; nothing would change.', {
          data: { fields: ['newText'] },
        });
      const opened = await openForReading(config, args.path, 'edit');
      const { location, stat: info } = opened;
      const { rel } = location;
      let bytes: Buffer;
      try {
        if (info.size > config.maxWriteBytes)
          throw new ToolCallError(
            'INVALID_ARGUMENT',
            `"${rel}" is ${info.size} bytes; files above ${config.maxWriteBytes} bytes are not edited.`,
            { hint: 'Edit a smaller file.' },
          );
        bytes = await orFsError(opened.handle.readFile(), rel, 'edit');
      } finally {
        await opened.handle.close();
      }
      if (looksBinary(bytes.subarray(0, 8192)))
        throw new ToolCallError('UNSUPPORTED', `"${rel}" is a binary file; only text files can be edited.`, {
          hint: 'Use write_file with base64 content to replace a binary file.',
        });
      const text = bytes.toString('utf8');
      let oldText = args.oldText;
      let newText = args.newText;
      let at = occurrences(text, oldText);
      if (at.length === 0 && text.includes('\r\n') && !oldText.includes('\r\n')) {
        // The model saw the file with \n line ends; the file uses \r\n.
        oldText = oldText.replace(/\n/g, '\r\n');
        newText = newText.replace(/\r?\n/g, '\r\n');
        at = occurrences(text, oldText);
      }
      if (at.length === 0) {
        throw new ToolCallError(
          'INVALID_ARGUMENT',
          `"oldText" does not occur in "${rel}".${nearMiss(text, args.oldText)}`,
          {
            hint: 'Read the file with read_file and copy the text exactly, including whitespace and indentation.',
            data: { fields: ['oldText'], occurrences: 0 },
          },
        );
      }
      if (at.length > 1 && !args.replaceAll) {
        const lines = at.slice(0, 10).map((i) => lineOf(text, i));
        throw new ToolCallError(
          'INVALID_ARGUMENT',
          `"oldText" occurs ${at.length} times in "${rel}" (at ` +
            `lines ${lines.join(', ')}${at.length > 10 ? ', …' : ''}).`,
          {
            hint:
              'Include more surrounding lines in oldText so it matches exactly one place, or set replaceAll: ' +
              'true to change all of them.',
            data: { fields: ['oldText'], occurrences: at.length, lines },
          },
        );
      }
      const updated = args.replaceAll
        ? text.split(oldText).join(newText)
        : text.slice(0, at[0]) + newText + text.slice((at[0] ?? 0) + oldText.length);
      const out = Buffer.from(updated, 'utf8');
      if (out.length > config.maxWriteBytes)
        throw new ToolCallError(
          'INVALID_ARGUMENT',
          `The edited file would be ${out.length} bytes; the limit is ${config.maxWriteBytes}.`,
          { data: { fields: ['newText'] } },
        );
      const dir = await orFsError(AnchoredDir.walk(location.realRoot, location.dir, args.path), rel, 'write');
      try {
        // The file replaced is the one that was read: a swap in between is refused, not overwritten.
        const replacing = { rel, mode: info.mode & 0o777, expect: info };
        await orFsError(replaceFile(config, dir, location.name, writeAll(out), replacing), rel, 'write');
      } finally {
        await dir.close();
      }
      const patch = formatPatch(structuredPatch(rel, rel, text, updated, undefined, undefined, { context: 2 }), {
        includeIndex: false,
        includeUnderline: false,
        includeFileHeaders: false,
      });
      return jsonSuccess({
        path: rel,
        replacements: args.replaceAll ? at.length : 1,
        firstLine: lineOf(text, at[0] ?? 0),
        diff: patch.length > MAX_DIFF_CHARS ? `${patch.slice(0, MAX_DIFF_CHARS)}\n…` : patch,
      });
    },
  });
}
