/**
 * list_files: the entries of a directory, to a depth. Symbolic links are listed as links and never
 * followed, so a link to a folder outside the workspace reveals nothing of what is behind it; each
 * directory is opened through an anchored walk from the root, so one swapped for a link while the
 * listing runs is skipped, not followed.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AnchoredDir } from './anchored-dir';
import { locate } from './confined-open';
import { z } from 'zod';
import { WORKSPACE_DIR } from '../core/fields';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { fsError, orFsError } from './fs-errors';
import { type FilesConfig, READ_DECLARATION } from './options';

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
    description: 'Lists the files and folders of a workspace folder with type and size, depth levels down.',
    input: z.object({
      path: WORKSPACE_DIR,
      depth: z.number().int().min(1).max(10).default(1).describe('1: only what is in path.'),
      includeHidden: z.boolean().default(true),
      maxEntries: z.number().int().min(1).max(5000).default(500),
    }),
    ...READ_DECLARATION,
    run: async (args, ctx) => {
      const location = await locate(config, args.path, true);
      const { rel, realRoot } = location;
      const abs = location.isRoot ? realRoot : join(location.dir, location.name);
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
          // A folder below the first that cannot be opened as checked (gone, or swapped for a link) is skipped.
          const anchored = await AnchoredDir.walk(realRoot, dir.abs, args.path).catch((e: unknown) => {
            if (depth === 1) throw fsError(e, rel, 'list');
            return null;
          });
          if (!anchored) continue;
          try {
            const children = await readdir(anchored.listing(), { withFileTypes: true }).catch(() => [] as Dirent[]);
            children.sort((a, b) => a.name.localeCompare(b.name));
            for (const child of children) {
              if (!args.includeHidden && child.name.startsWith('.')) continue;
              if (entries.length >= args.maxEntries) {
                truncated = true;
                break;
              }
              const entry: Entry = { path: joinRel(dir.rel, child.name), type: typeOf(child) };
              if (entry.type === 'file')
                entry.size = (await lstat(anchored.child(child.name)).catch(() => null))?.size ?? 0;
              entries.push(entry);
              if (entry.type === 'directory') next.push({ abs: join(dir.abs, child.name), rel: entry.path });
            }
          } finally {
            await anchored.close();
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
