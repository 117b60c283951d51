/**
 * copy_move_file: copies or moves a file or directory inside the workspace. An existing
 * destination is an error unless overwrite is set (and then only a file replaces a file).
 * Directory copies skip symbolic links, so a link to outside cannot be turned into a copy of it.
 * Source and destination are acted on in their anchored folders and every file copied is opened
 * as read_file opens it; the host's secrets are neither copied, moved nor replaced, and a tree
 * holding a file with several hard links is not copied.
 */
import { lstat, mkdir, readlink, rename, symlink, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { WORKSPACE_PATH } from '../core/fields';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { AnchoredDir } from './anchored-dir';
import { type Location, locate, openForReading, refuseSecret } from './confined-open';
import { type CopyCounts, copyTree, deleteTree, inspectTree } from './file-tree';
import { orFsError } from './fs-errors';
import { type FilesConfig, mutatingDeclaration } from './options';
import { isInside } from './path-guard';
import { copyFrom, replaceFile } from './text-file';
import { openParent } from './write-file';

function invalid(message: string, field: string, hint?: string): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', message, { ...(hint ? { hint } : {}), data: { fields: [field] } });
}

const absOf = (l: Location) => (l.isRoot ? l.realRoot : join(l.dir, l.name));

interface Ends {
  config: FilesConfig;
  src: Location;
  dst: Location;
  /** The model's paths, for refusals. */
  source: string;
  destination: string;
}

async function copyFile({ config, src, dst, source }: Ends, to: AnchoredDir): Promise<void> {
  const opened = await openForReading(config, source, 'copy', 'source');
  try {
    const replacing = { rel: dst.rel, mode: opened.stat.mode & 0o777 };
    await orFsError(replaceFile(config, to, dst.name, copyFrom(opened.handle), replacing), src.rel, 'copy');
  } finally {
    await opened.handle.close();
  }
}

/** Copies the folder `name` of `from` to `dst.name` in `to`: checked whole first, then copied. */
async function copyFolder(ends: Ends, from: AnchoredDir, name: string, to: AnchoredDir): Promise<CopyCounts> {
  const counts: CopyCounts = { skippedLinks: 0, skippedOther: 0 };
  const source = await from.openDir(name);
  try {
    await inspectTree(ends.config, source, ends.src.rel);
    await orFsError(mkdir(to.child(ends.dst.name)), ends.dst.rel, 'copy to');
    const target = await to.openDir(ends.dst.name);
    try {
      await orFsError(copyTree(ends.config, source, target, ends.src.rel, counts), ends.dst.rel, 'copy to');
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
  return counts;
}

async function move(ends: Ends, from: AnchoredDir, to: AnchoredDir, isDir: boolean, isLink: boolean): Promise<void> {
  const { src, dst } = ends;
  try {
    await rename(from.child(src.name), to.child(dst.name));
    return;
  } catch (e) {
    // Different file systems inside the workspace (a mount point): rename cannot cross them.
    if ((e as { code?: unknown }).code !== 'EXDEV') throw e;
  }
  if (isLink) await symlink(await readlink(from.child(src.name)), to.child(dst.name));
  else if (isDir) await copyFolder(ends, from, src.name, to);
  else await copyFile(ends, to);
  if (isDir) await deleteTree(from, src.name);
  else await unlink(from.child(src.name));
}

export function copyMoveFileTool(config: FilesConfig) {
  return defineTool({
    id: 'copy_move_file',
    title: 'Copy or move a file',
    description:
      'Copies or moves (renames) a file or folder of the workspace; destination is its full new path, not a folder.',
    input: z.object({
      source: WORKSPACE_PATH,
      destination: WORKSPACE_PATH,
      mode: z.enum(['copy', 'move']),
      overwrite: z.boolean().default(false),
      createDirs: z.boolean().default(false).describe('Create missing parent folders.'),
    }),
    ...mutatingDeclaration('MEDIUM', false),
    run: async (args) => {
      // A copy reads through an inside link to what it names; a move renames the name itself.
      const follow = args.mode === 'copy';
      const src = await locate(config, args.source, follow);
      const dst = await locate(config, args.destination, follow);
      if (src.isRoot)
        throw new ToolCallError('PERMISSION_DENIED', 'The workspace root itself cannot be copied or moved.', {
          hint: 'Name a file or folder inside the workspace.',
        });
      if (dst.isRoot)
        throw invalid(
          'The destination is the workspace root.',
          'destination',
          'Give the full new path, e.g. "backup/notes.md".',
        );
      if (absOf(src) === absOf(dst)) throw invalid('Source and destination are the same path.', 'destination');
      const srcInfo = await orFsError(lstat(absOf(src)), src.rel, args.mode);
      const srcIsDir = srcInfo.isDirectory();
      if (srcIsDir && isInside(absOf(src), absOf(dst)))
        throw invalid(`Cannot ${args.mode} "${src.rel}" into itself ("${dst.rel}").`, 'destination');
      const dstInfo = await lstat(absOf(dst)).catch(() => null);
      if (dstInfo) {
        if (!args.overwrite)
          throw invalid(
            `"${dst.rel}" already exists.`,
            'destination',
            'Set overwrite: true to replace it, or choose another destination.',
          );
        if (dstInfo.isDirectory() || srcIsDir)
          throw invalid(
            `"${dst.rel}" exists and ${dstInfo.isDirectory() ? 'is a directory' : `"${src.rel}" is a directory`}; ` +
              'only a file replaces a file.',
            'destination',
            'Delete the destination first with delete_file, or choose another path.',
          );
      }
      const ends: Ends = { config, src, dst, source: args.source, destination: args.destination };
      const to = await openParent(dst, args.destination, args.createDirs);
      try {
        const from = await orFsError(AnchoredDir.walk(src.realRoot, src.dir, args.source), src.rel, args.mode);
        try {
          const info = await orFsError(lstat(from.child(src.name)), src.rel, args.mode);
          refuseSecret(config, from, src.name, info, args.source);
          const existing = await lstat(to.child(dst.name)).catch(() => null);
          refuseSecret(config, to, dst.name, existing ?? undefined, args.destination);
          let counts: CopyCounts = { skippedLinks: 0, skippedOther: 0 };
          if (args.mode === 'move')
            await orFsError(move(ends, from, to, srcIsDir, info.isSymbolicLink()), src.rel, 'move');
          else if (srcIsDir) counts = await copyFolder(ends, from, src.name, to);
          else await copyFile(ends, to);
          return jsonSuccess({
            mode: args.mode,
            source: src.rel,
            destination: dst.rel,
            type: srcIsDir ? 'directory' : 'file',
            replaced: dstInfo !== null,
            ...counts,
          });
        } finally {
          await from.close();
        }
      } finally {
        await to.close();
      }
    },
  });
}
