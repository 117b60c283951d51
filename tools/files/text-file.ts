/**
 * Text-file helpers shared by the files tools: binary detection (a NUL byte or invalid UTF-8 in the
 * first 8 KiB, as git and grep decide) and atomic replacement (a temporary file in the same
 * directory, then rename, so a reader never sees half a file and a crash leaves the old content
 * intact). Both work on descriptors and anchored directories, never on a path opened twice.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, lstat, rename, rm } from 'node:fs/promises';
import type { AnchoredDir } from './anchored-dir';
import { isDirectory, notRegularFile, refuseSecret } from './confined-open';
import type { FilesConfig } from './options';
import { hardLinksDenied, pathDenied } from './path-guard';
import { type FileId, sameFile } from './secret-files';

export const SNIFF_BYTES = 8192;

export function looksBinary(sample: Buffer): boolean {
  if (sample.includes(0)) return true;
  try {
    // stream: true tolerates a multi-byte character cut at the end of the sample.
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return false;
  } catch {
    return true;
  }
}

export async function sniffBinary(handle: FileHandle): Promise<boolean> {
  const buf = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
  return looksBinary(buf.subarray(0, bytesRead));
}

export interface ReplaceOptions {
  /** The path as the model named it, for messages. */
  rel: string;
  /** Mode of the new file; default: the replaced file's, or 0666 less the umask for a new one. */
  mode?: number;
  /** The file must still be this one (edit_file: the file that was read). */
  expect?: FileId;
}

/**
 * Replaces (or creates) `name` in `dir` with what `fill` writes into a fresh temporary file. The
 * temporary file is created with O_EXCL|O_NOFOLLOW in the anchored directory and renamed there,
 * so the rename lands in the directory that was checked. What is replaced obeys the same rules as
 * what is read: never a secret, never a file with several hard links, never a directory.
 */
export async function replaceFile(
  config: FilesConfig,
  dir: AnchoredDir,
  name: string,
  fill: (handle: FileHandle) => Promise<void>,
  opts: ReplaceOptions,
): Promise<void> {
  const previous = await lstat(dir.child(name)).catch(() => null);
  // The path guard resolved any link before this point: a link here now took the file's place.
  if (previous?.isSymbolicLink()) throw pathDenied(dir.shown, 'swapped');
  refuseSecret(config, dir, name, previous ?? undefined, dir.shown);
  if (previous?.isDirectory()) throw isDirectory(opts.rel);
  if (previous && !previous.isFile()) throw notRegularFile(opts.rel);
  if (previous && previous.nlink > 1) throw hardLinksDenied(dir.shown, previous.nlink);
  if (opts.expect && (!previous || !sameFile(previous, opts.expect))) throw pathDenied(dir.shown, 'swapped');
  const tmpName = `.${name}.${randomBytes(6).toString('hex')}.tmp`;
  const mode = opts.mode ?? (previous ? previous.mode & 0o777 : 0o666);
  const tmp = await dir
    .openFile(tmpName, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode)
    .catch(async (e: unknown) => {
      // Created but refused (it did not land where checked): remove it. EEXIST: it was never ours.
      if ((e as { code?: unknown }).code !== 'EEXIST') await rm(dir.child(tmpName), { force: true });
      throw e;
    });
  let renamed = false;
  try {
    await fill(tmp);
    await dir.confirm();
    await rename(dir.child(tmpName), dir.child(name));
    renamed = true;
  } finally {
    await tmp.close();
    if (!renamed) await rm(dir.child(tmpName), { force: true });
  }
}

/** A `fill` for replaceFile that writes a buffer. */
export const writeAll =
  (data: Buffer) =>
  async (handle: FileHandle): Promise<void> => {
    await handle.writeFile(data);
  };

const COPY_CHUNK = 256 * 1024;

/** A `fill` for replaceFile that copies an open file, by position through both descriptors. */
export const copyFrom =
  (source: FileHandle) =>
  async (target: FileHandle): Promise<void> => {
    const buf = Buffer.alloc(COPY_CHUNK);
    for (let position = 0; ; ) {
      const { bytesRead } = await source.read(buf, 0, COPY_CHUNK, position);
      if (bytesRead === 0) return;
      await target.write(buf, 0, bytesRead, position);
      position += bytesRead;
    }
  };
