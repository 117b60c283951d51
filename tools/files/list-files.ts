/**
 * list_files: the entries of a directory, to a depth. Symbolic links are listed as links and never
 * followed, so a link to a folder outside the workspace reveals nothing of what is behind it.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { orFsError } from './fs-errors';
import { type FilesConfig, READ_DECLARATION, guard } from './options';

export interface Entry {
  path: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  size?: number;
}

function typeOf(d: Dirent): Entry['type'] {
  if (d.isSymbolicLink()) return 'symlink';
  if (d.isDirectory()) return 'directory';
  if (d.isFile()) return 'file';
  return 'other';
}

const joinRel = (dir: string, name: string) => (dir === '.' ? name : `${dir}/${name}`);

export function listFilesTool(config: FilesConfig) {
  return defineTool({
    id: 'list_files',
    title: 'List files',
    description:
      'Lists the files and directories under a workspace directory, with type and size, down to a depth (1 = direct children). Symbolic links are shown as links, not followed.',
    input: z.object({
      path: z.string().default('.').describe('Workspace-relative directory to list (default: the workspace root).'),
      depth: z.number().int().min(1).max(10).default(1).describe('How many levels to descend (1–10, default 1).'),
      includeHidden: z.boolean().default(true).describe('Include names starting with "." (default true).'),
      maxEntries: z
        .number()
        .int()
        .min(1)
        .max(5000)
        .default(500)
        .describe('Stop after this many entries (default 500).'),
    }),
    ...READ_DECLARATION,
    run: async (args, ctx) => {
      const { abs, rel } = await guard(config, args.path);
      const info = await orFsError(stat(abs), rel, 'list');
      if (!info.isDirectory())
        throw new ToolCallError('INVALID_ARGUMENT', `"${rel}" is not a directory.`, {
          hint: 'Use read_file for files.',
          data: { fields: ['path'] },
        });
      const entries: Entry[] = [];
      let truncated = false;
      let level: Array<{ abs: string; rel: string }> = [{ abs, rel }];
      for (let depth = 1; depth <= args.depth && level.length > 0 && !truncated; depth++) {
        const next: typeof level = [];
        for (const dir of level) {
          if (ctx.signal.aborted) throw new ToolCallError('TIMEOUT', 'Listing was cancelled.');
          const children = await readdir(dir.abs, { withFileTypes: true }).catch(() => [] as Dirent[]);
          children.sort((a, b) => a.name.localeCompare(b.name));
          for (const child of children) {
            if (!args.includeHidden && child.name.startsWith('.')) continue;
            if (entries.length >= args.maxEntries) {
              truncated = true;
              break;
            }
            const entry: Entry = { path: joinRel(dir.rel, child.name), type: typeOf(child) };
            const childAbs = join(dir.abs, child.name);
            if (entry.type === 'file') entry.size = (await lstat(childAbs).catch(() => null))?.size ?? 0;
            entries.push(entry);
            if (entry.type === 'directory') next.push({ abs: childAbs, rel: entry.path });
          }
          if (truncated) break;
        }
        level = next;
      }
      entries.sort((a, b) => a.path.localeCompare(b.path));
      return jsonSuccess({ path: rel, count: entries.length, truncated, entries });
    },
  });
}
