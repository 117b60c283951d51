/**
 * glob_files: workspace files matching glob patterns (`tinyglobby`). Patterns that climb out
 * ("../x", "/etc/*") are refused, symbolic links are not followed, and every result returned is
 * checked to exist inside the root behind real folders only, so a folder swapped for a link while
 * the walk ran shows nothing of where the link led.
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { glob } from 'tinyglobby';
import { z } from 'zod';
import { WORKSPACE_DIR } from '../core/fields';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { orFsError } from './fs-errors';
import { type FilesConfig, READ_DECLARATION, guard } from './options';
import { isInside, pathDenied } from './path-guard';

/** Refuses a glob that could reach outside the directory it runs in. */
export function checkPattern(raw: string): void {
  const pattern = raw.replace(/^!+/, '');
  if (pattern.includes('\0')) throw pathDenied(pattern, 'nul-byte');
  if (isAbsolute(pattern) || /^[a-zA-Z]:/.test(pattern)) throw pathDenied(pattern, 'outside-root');
  if (pattern.split(/[\\/]/).includes('..')) throw pathDenied(pattern, 'parent-traversal');
}

export const DEFAULT_IGNORE = ['**/node_modules/**', '**/.git/**'];

export interface GlobRequest {
  base: string;
  patterns: string[];
  ignore: string[];
  dot: boolean;
  onlyFiles: boolean;
  caseSensitive: boolean;
}

/**
 * Matches under `base` (absolute, inside the root), as paths relative to `base`, sorted. Names
 * only: whoever opens one checks it again (search_files opens each through confined-open).
 */
export async function globInside(root: string, req: GlobRequest, signal: AbortSignal): Promise<string[]> {
  for (const p of [...req.patterns, ...req.ignore]) checkPattern(p);
  // The real folder: matches are then checked to sit in real folders below it.
  const base = await realpath(req.base);
  const found = await glob(req.patterns, {
    cwd: base,
    ignore: req.ignore,
    dot: req.dot,
    onlyFiles: req.onlyFiles,
    caseSensitiveMatch: req.caseSensitive,
    followSymbolicLinks: false,
    expandDirectories: false,
    absolute: false,
    signal,
  });
  return found.filter((p) => isInside(root, resolve(base, p))).sort();
}

/**
 * The first `limit` of `paths` (relative to `base`) that exist now in folders whose real path is
 * their own path inside the root: a name seen through a folder swapped for a link is dropped.
 */
async function keepReal(root: string, base: string, paths: string[], limit: number): Promise<string[]> {
  const realBase = await realpath(base);
  const folders = new Map<string, Promise<boolean>>();
  const realFolder = (dir: string): Promise<boolean> => {
    let known = folders.get(dir);
    if (!known) {
      known = realpath(dir).then(
        (real) => real === dir && isInside(root, real),
        () => false,
      );
      folders.set(dir, known);
    }
    return known;
  };
  const kept: string[] = [];
  for (const p of paths) {
    if (kept.length >= limit) break;
    const abs = resolve(realBase, p);
    if (isInside(root, abs) && (await realFolder(dirname(abs))) && (await lstat(abs).catch(() => null))) kept.push(p);
  }
  return kept;
}

export function globFilesTool(config: FilesConfig) {
  return defineTool({
    id: 'glob_files',
    title: 'Find files by pattern',
    description:
      'Finds workspace files whose paths match globs like ' +
      '"**/*.ts", sorted; node_modules and .git are skipped unless ' +
      'ignore is given.',
    input: z.object({
      pattern: z
        .union([z.string().min(1), z.array(z.string().min(1)).min(1).max(50)])
        .describe('Relative to path; "!" in front excludes.'),
      path: WORKSPACE_DIR,
      ignore: z.array(z.string()).max(50).optional(),
      includeHidden: z.boolean().default(false).describe('Let "*" match names starting with ".".'),
      includeDirectories: z.boolean().default(false),
      caseSensitive: z.boolean().default(true),
      maxResults: z.number().int().min(1).max(10_000).default(1000),
    }),
    ...READ_DECLARATION,
    run: async (args, ctx) => {
      const base = await guard(config, args.path);
      const info = await orFsError(stat(base.abs), base.rel, 'search');
      if (!info.isDirectory())
        throw new ToolCallError('INVALID_ARGUMENT', `"${base.rel}" is not a directory.`, {
          data: { fields: ['path'] },
        });
      const rootAbs = (await guard(config, '.')).abs;
      const matches = await globInside(
        rootAbs,
        {
          base: base.abs,
          patterns: Array.isArray(args.pattern) ? args.pattern : [args.pattern],
          ignore: args.ignore ?? DEFAULT_IGNORE,
          dot: args.includeHidden,
          onlyFiles: !args.includeDirectories,
          caseSensitive: args.caseSensitive,
        },
        ctx.signal,
      );
      const real = await keepReal(rootAbs, base.abs, matches, args.maxResults + 1);
      const paths = real.map((p) => (base.rel === '.' ? p : `${base.rel}/${p}`).replace(/\/$/, ''));
      const truncated = paths.length > args.maxResults;
      return jsonSuccess({
        count: Math.min(paths.length, args.maxResults),
        truncated,
        paths: paths.slice(0, args.maxResults),
      });
    },
  });
}
