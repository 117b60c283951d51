/**
 * glob_files: workspace files matching glob patterns (`tinyglobby`). Patterns that climb out
 * ("../x", "/etc/*") are refused, symbolic links are not followed, and every result is checked to
 * lie inside the root.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { glob } from 'tinyglobby';
import { z } from 'zod';
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

/** Matches under `base` (absolute, inside the root), as paths relative to `base`, sorted. */
export async function globInside(root: string, req: GlobRequest, signal: AbortSignal): Promise<string[]> {
  for (const p of [...req.patterns, ...req.ignore]) checkPattern(p);
  const found = await glob(req.patterns, {
    cwd: req.base,
    ignore: req.ignore,
    dot: req.dot,
    onlyFiles: req.onlyFiles,
    caseSensitiveMatch: req.caseSensitive,
    followSymbolicLinks: false,
    expandDirectories: false,
    absolute: false,
    signal,
  });
  return found.filter((p) => isInside(root, resolve(req.base, p))).sort();
}

export function globFilesTool(config: FilesConfig) {
  return defineTool({
    id: 'glob_files',
    title: 'Find files by pattern',
    description:
      'Finds workspace files whose paths match glob patterns such as "**/*.ts", "src/**/test_*.py" or "*.{json,yaml}". Returns paths relative to the workspace root, sorted. node_modules and .git are skipped unless "ignore" is given.',
    input: z.object({
      pattern: z
        .union([z.string().min(1), z.array(z.string().min(1)).min(1).max(50)])
        .describe('A glob pattern or a list of them, relative to "path". Prefix with "!" to exclude.'),
      path: z.string().default('.').describe('Workspace-relative directory to search from (default: the root).'),
      ignore: z
        .array(z.string())
        .max(50)
        .optional()
        .describe('Glob patterns to skip (default: node_modules and .git).'),
      includeHidden: z.boolean().default(false).describe('Let "*" match names starting with ".".'),
      includeDirectories: z.boolean().default(false).describe('Also return matching directories.'),
      caseSensitive: z.boolean().default(true).describe('Match letter case exactly (default true).'),
      maxResults: z
        .number()
        .int()
        .min(1)
        .max(10_000)
        .default(1000)
        .describe('Return at most this many paths (default 1000).'),
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
      const paths = matches.map((p) => (base.rel === '.' ? p : `${base.rel}/${p}`).replace(/\/$/, ''));
      const truncated = paths.length > args.maxResults;
      return jsonSuccess({
        count: Math.min(paths.length, args.maxResults),
        truncated,
        paths: paths.slice(0, args.maxResults),
      });
    },
  });
}
