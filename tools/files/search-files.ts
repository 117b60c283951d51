/**
 * search_files: text or regex search through workspace files, with line numbers. Regexes run
 * under the same time bound as regex_extract; every file is opened as read_file opens it (path
 * guard, no link followed, the descriptor checked, secrets and hard-linked files refused), so a
 * symlink or a swap among the matches never leaks a file from outside the workspace.
 */
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { WORKSPACE_DIR } from '../core/fields';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { BoundExceeded, runBounded } from '../common/time-bound';
import { compileRegex, regexTimeout } from '../common/safe-regex';
import { type OpenedFile, openForReading } from './confined-open';
import { orFsError } from './fs-errors';
import { DEFAULT_IGNORE, globInside } from './glob-files';
import { type FilesConfig, READ_DECLARATION, guard } from './options';
import { looksBinary } from './text-file';

const PER_FILE_BOUND_MS = 1000;
const MAX_LINE_CHARS = 300;

interface Hit {
  path: string;
  line: number;
  column: number;
  text: string;
}

type LineMatcher = (line: string) => number;

function matcher(args: { query: string; regex: boolean; ignoreCase: boolean }): LineMatcher {
  if (args.regex) {
    const re = compileRegex(args.query, args.ignoreCase ? 'i' : '', 'query');
    return (line) => {
      const m = re.exec(line);
      return m ? m.index : -1;
    };
  }
  const needle = args.ignoreCase ? args.query.toLowerCase() : args.query;
  return (line) => (args.ignoreCase ? line.toLowerCase() : line).indexOf(needle);
}

function clip(line: string, column: number): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const from = Math.max(0, Math.min(column - 50, line.length - MAX_LINE_CHARS));
  return `${from > 0 ? '…' : ''}${line.slice(from, from + MAX_LINE_CHARS)}…`;
}

function searchText(text: string, path: string, match: LineMatcher, room: number): Hit[] {
  const hits: Hit[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length && hits.length < room; i++) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    const at = match(line);
    if (at >= 0) hits.push({ path, line: i + 1, column: at + 1, text: clip(line, at) });
  }
  return hits;
}

/** The whole content of an opened file, or null when it is larger than `max` bytes; closes the file. */
const readSmall =
  (max: number) =>
  async ({ handle, stat: info }: OpenedFile): Promise<Buffer | null> => {
    try {
      return info.size > max ? null : await handle.readFile();
    } catch {
      return null;
    } finally {
      await handle.close();
    }
  };

export function searchFilesTool(config: FilesConfig) {
  const maxFileBytes = config.maxReadBytes * 8;
  return defineTool({
    id: 'search_files',
    title: 'Search in files',
    description:
      'Finds a text or a JavaScript regex in workspace files: matching lines with path, line and column. ' +
      `Skips binary files, files over ${maxFileBytes} bytes, node_modules and .git.`,
    input: z.object({
      query: z.string().min(1).max(2000),
      regex: z.boolean().default(false),
      ignoreCase: z.boolean().default(false),
      path: WORKSPACE_DIR,
      include: z
        .union([z.string(), z.array(z.string()).max(50)])
        .default('**/*')
        .describe('Globs of files to search.'),
      exclude: z.array(z.string()).max(50).optional(),
      maxResults: z.number().int().min(1).max(1000).default(100),
    }),
    ...READ_DECLARATION,
    run: async (args, ctx) => {
      const match = matcher(args);
      const base = await guard(config, args.path);
      const info = await orFsError(stat(base.abs), base.rel, 'search');
      if (!info.isDirectory())
        throw new ToolCallError('INVALID_ARGUMENT', `"${base.rel}" is not a directory.`, {
          data: { fields: ['path'] },
        });
      const rootAbs = (await guard(config, '.')).abs;
      const files = await globInside(
        rootAbs,
        {
          base: base.abs,
          patterns: Array.isArray(args.include) ? args.include : [args.include],
          ignore: args.exclude ?? DEFAULT_IGNORE,
          dot: false,
          onlyFiles: true,
          caseSensitive: true,
        },
        ctx.signal,
      );
      const hits: Hit[] = [];
      let searched = 0;
      let skipped = 0;
      for (const file of files) {
        if (hits.length >= args.maxResults) break;
        if (ctx.signal.aborted) throw new ToolCallError('TIMEOUT', 'The search was cancelled before it finished.');
        const rel = base.rel === '.' ? file : `${base.rel}/${file}`;
        // Refused files (outside, secret, hard-linked, not regular: a FIFO would block) are skipped.
        const bytes = await openForReading(config, rel, 'search').then(readSmall(maxFileBytes), () => null);
        if (!bytes || looksBinary(bytes.subarray(0, 8192))) {
          skipped += 1;
          continue;
        }
        searched += 1;
        try {
          hits.push(
            ...runBounded(
              () => searchText(bytes.toString('utf8'), rel, match, args.maxResults - hits.length),
              PER_FILE_BOUND_MS,
            ),
          );
        } catch (e) {
          if (e instanceof BoundExceeded) throw regexTimeout(PER_FILE_BOUND_MS, 'query');
          throw e;
        }
      }
      const truncated = hits.length >= args.maxResults;
      return jsonSuccess({
        count: hits.length,
        truncated,
        filesSearched: searched,
        filesSkipped: skipped,
        matches: hits,
      });
    },
  });
}
