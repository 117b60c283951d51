/**
 * Opening what a model names, and checking what was opened. A path is first resolved by the path
 * guard (parents canonical, links checked to stay inside); the object is then opened through an
 * anchored directory without following links, and the open descriptor, not the path, is what the
 * rules are applied to: the host's secret files, the hard-link rule, regular files only. Reads go
 * through that descriptor, so a swap after the checks reads nothing new.
 */
import { type Stats, constants } from 'node:fs';
import { type FileHandle, lstat, realpath } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { ToolCallError } from '../core/result';
import { AnchoredDir } from './anchored-dir';
import { orFsError } from './fs-errors';
import { type FilesConfig, guard } from './options';
import { hardLinksDenied, isInside, pathDenied, realRootOf } from './path-guard';
import type { FileId } from './secret-files';

/** Where the object a model named really is: its canonical folder and its name there. */
export interface Location {
  realRoot: string;
  /** The path as the model named it, workspace-relative, for messages. */
  rel: string;
  dir: string;
  name: string;
  /** The object is the workspace root itself. */
  isRoot: boolean;
}

/**
 * Resolves `userPath` inside the root. With `followLink`, a symbolic link that stays inside is
 * replaced by its target (reads and writes act on the file it names); without, the link itself is
 * the object (delete and move act on the name).
 */
export async function locate(config: FilesConfig, userPath: string, followLink: boolean): Promise<Location> {
  const { abs, rel } = await guard(config, userPath);
  const realRoot = await realRootOf(config.root);
  let target = abs;
  if (followLink && abs !== realRoot && (await lstat(abs).catch(() => null))?.isSymbolicLink()) {
    const real = await realpath(abs).catch(() => null);
    if (real === null) throw pathDenied(userPath, 'dangling-symlink');
    if (!isInside(realRoot, real)) throw pathDenied(userPath, 'symlink-escape');
    target = real;
  }
  return { realRoot, rel, dir: dirname(target), name: basename(target), isRoot: target === realRoot };
}

/** Refuses an object that is, or holds, one of the host's secrets (`id` absent: about to be created). */
export function refuseSecret(
  config: FilesConfig,
  dir: AnchoredDir,
  name: string,
  id: FileId | undefined,
  shown: string,
): void {
  if (config.secrets({ parent: dir.id, name, ...(id ? { id } : {}) })) throw pathDenied(shown, 'secret-file');
}

export function isDirectory(rel: string, field = 'path'): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', `"${rel}" is a directory.`, {
    hint: 'Use list_files to see what it contains.',
    data: { fields: [field] },
  });
}

export function notRegularFile(rel: string, field = 'path'): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', `"${rel}" is not a regular file.`, {
    hint: 'Name a regular file; devices, sockets and pipes are not read or written.',
    data: { fields: [field] },
  });
}

export interface OpenedFile {
  handle: FileHandle;
  /** fstat of the descriptor: the file that was opened. */
  stat: Stats;
  location: Location;
}

/**
 * Opens a regular file for reading (O_NONBLOCK, so a pipe put in its place cannot block the open;
 * it is refused as not a regular file). The caller closes `handle`.
 */
export async function openForReading(
  config: FilesConfig,
  userPath: string,
  action: string,
  field = 'path',
): Promise<OpenedFile> {
  const location = await locate(config, userPath, true);
  const { rel, name } = location;
  if (location.isRoot) throw isDirectory(rel, field);
  const dir = await orFsError(AnchoredDir.walk(location.realRoot, location.dir, userPath), rel, action);
  try {
    const handle = await orFsError(dir.openFile(name, constants.O_RDONLY | constants.O_NONBLOCK), rel, action);
    try {
      const stat = await handle.stat();
      refuseSecret(config, dir, name, stat, userPath);
      if (stat.isDirectory()) throw isDirectory(rel, field);
      if (!stat.isFile()) throw notRegularFile(rel, field);
      if (stat.nlink > 1) throw hardLinksDenied(userPath, stat.nlink);
      return { handle, stat, location };
    } catch (e) {
      await handle.close();
      throw e;
    }
  } finally {
    await dir.close();
  }
}
