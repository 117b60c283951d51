/**
 * copy_move_file: copies or moves a file or directory inside the workspace. An existing
 * destination is an error unless overwrite is set (and then only a file replaces a file).
 * Directory copies skip symbolic links, so a link to outside cannot be turned into a copy of it.
 */
import { cp, lstat, rename, rm, stat } from 'node:fs/promises';
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { orFsError } from './fs-errors';
import { type FilesConfig, type GuardedPath, guard, mutatingDeclaration } from './options';
import { isInside } from './path-guard';
import { ensureParent } from './write-file';

function invalid(message: string, field: string, hint?: string): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', message, { ...(hint ? { hint } : {}), data: { fields: [field] } });
}

async function copyTree(src: GuardedPath, dst: GuardedPath, overwrite: boolean): Promise<number> {
  let skippedLinks = 0;
  await orFsError(
    cp(src.abs, dst.abs, {
      recursive: true,
      force: overwrite,
      errorOnExist: !overwrite,
      filter: async (path) => {
        const isLink = (await lstat(path)).isSymbolicLink();
        if (isLink) skippedLinks += 1;
        return !isLink;
      },
    }),
    dst.rel,
    'copy to',
  );
  return skippedLinks;
}

async function move(src: GuardedPath, dst: GuardedPath, isDir: boolean): Promise<void> {
  try {
    await rename(src.abs, dst.abs);
  } catch (e) {
    // Different file systems inside the workspace (a mount point): rename cannot cross them.
    if ((e as { code?: unknown }).code !== 'EXDEV') throw e;
    await cp(src.abs, dst.abs, { recursive: isDir, force: true });
    await rm(src.abs, { recursive: isDir, force: true });
  }
}

export function copyMoveFileTool(config: FilesConfig) {
  return defineTool({
    id: 'copy_move_file',
    title: 'Copy or move a file',
    description:
      'Copies or moves (renames) a file or directory to a new path inside the workspace. The destination is the full new path, not a folder to put it in. An existing destination is refused unless overwrite is true.',
    input: z.object({
      source: z.string().describe('Workspace-relative path of the file or directory to copy or move.'),
      destination: z.string().describe('Workspace-relative full path it should get, e.g. "backup/config.json".'),
      mode: z.enum(['copy', 'move']).describe('"copy" keeps the source; "move" renames it.'),
      overwrite: z.boolean().default(false).describe('Replace an existing destination file.'),
      createDirs: z.boolean().default(false).describe('Create missing parent directories of the destination.'),
    }),
    ...mutatingDeclaration('MEDIUM', false),
    run: async (args) => {
      const src = await guard(config, args.source);
      const dst = await guard(config, args.destination);
      const root = (await guard(config, '.')).abs;
      if (src.abs === root)
        throw new ToolCallError('PERMISSION_DENIED', 'The workspace root itself cannot be copied or moved.', {
          hint: 'Name a file or folder inside the workspace.',
        });
      if (dst.abs === root)
        throw invalid(
          'The destination is the workspace root.',
          'destination',
          'Give the full new path, e.g. "backup/notes.md".',
        );
      if (src.abs === dst.abs) throw invalid('Source and destination are the same path.', 'destination');
      const srcInfo = await orFsError(lstat(src.abs), src.rel, args.mode);
      const srcIsDir = (await stat(src.abs).catch(() => srcInfo)).isDirectory() && !srcInfo.isSymbolicLink();
      if (srcIsDir && isInside(src.abs, dst.abs))
        throw invalid(`Cannot ${args.mode} "${src.rel}" into itself ("${dst.rel}").`, 'destination');
      const dstInfo = await lstat(dst.abs).catch(() => null);
      if (dstInfo) {
        if (!args.overwrite)
          throw invalid(
            `"${dst.rel}" already exists.`,
            'destination',
            'Set overwrite: true to replace it, or choose another destination.',
          );
        if (dstInfo.isDirectory() || srcIsDir)
          throw invalid(
            `"${dst.rel}" exists and ${dstInfo.isDirectory() ? 'is a directory' : `"${src.rel}" is a directory`}; only a file replaces a file.`,
            'destination',
            'Delete the destination first with delete_file, or choose another path.',
          );
      }
      await ensureParent(dst.abs, dst.rel, args.createDirs);
      let skippedLinks = 0;
      if (args.mode === 'move') await orFsError(move(src, dst, srcIsDir), src.rel, 'move');
      else if (srcIsDir) skippedLinks = await copyTree(src, dst, args.overwrite);
      else
        await orFsError(
          cp(src.abs, dst.abs, { dereference: true, force: args.overwrite, errorOnExist: !args.overwrite }),
          src.rel,
          'copy',
        );
      return jsonSuccess({
        mode: args.mode,
        source: src.rel,
        destination: dst.rel,
        type: srcIsDir ? 'directory' : 'file',
        replaced: dstInfo !== null,
        skippedLinks,
      });
    },
  });
}
