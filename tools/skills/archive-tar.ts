/**
 * Reads a .tar.gz (or .tgz) archive into a bundle without writing anything. The gzip layer is
 * inflated with a hard output cap (a gzip bomb stops there); the tar layer is read by node-tar's
 * parser in strict mode, so a damaged header is an error rather than a skipped entry. Only files
 * and folders are accepted: hard and symbolic links, devices and pipes are refused by name.
 */
import { gunzipSync } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { SKILL_LIMITS } from './limits';
import { SkillBundleBuilder, SkillBundleError, type SkillFile } from './skill-bundle';

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
const REFUSED: Record<string, string> = {
  Link: 'hard link',
  SymbolicLink: 'symbolic link',
  CharacterDevice: 'character device',
  BlockDevice: 'block device',
  FIFO: 'named pipe',
};

/** Tar headers take 512 bytes per entry and the archive ends in padding: room for them beyond the files. */
const TAR_OVERHEAD = (SKILL_LIMITS.entries + 4) * 1024;

export function gunzipCapped(archive: Buffer): Buffer {
  try {
    return gunzipSync(archive, { maxOutputLength: SKILL_LIMITS.totalBytes + TAR_OVERHEAD });
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new SkillBundleError(`the archive inflates to more than ${SKILL_LIMITS.totalBytes} bytes`);
    throw new SkillBundleError(`the file is not a readable gzip archive (${(e as Error).message})`);
  }
}

export function readTarGz(archive: Buffer): Promise<SkillFile[]> {
  return readTar(gunzipCapped(archive));
}

export function readTar(tar: Buffer): Promise<SkillFile[]> {
  const builder = new SkillBundleBuilder();
  return new Promise<SkillFile[]>((resolve, reject) => {
    let failed = false;
    const fail = (e: unknown) => {
      if (failed) return;
      failed = true;
      reject(e instanceof SkillBundleError ? e : new SkillBundleError(`the tar archive is damaged (${String(e)})`));
    };
    const parser = new Parser({
      strict: true,
      onwarn: (_code, message) => fail(new SkillBundleError(`the tar archive is damaged (${String(message)})`)),
      onReadEntry: (entry: ReadEntry) => {
        if (failed) {
          entry.resume();
          return;
        }
        try {
          onEntry(entry, builder, fail);
        } catch (e) {
          entry.resume();
          fail(e);
        }
      },
    });
    parser.on('error', fail);
    parser.on('end', () => {
      if (!failed) resolve(builder.build());
    });
    try {
      parser.end(tar);
    } catch (e) {
      fail(e);
    }
  });
}

function onEntry(entry: ReadEntry, builder: SkillBundleBuilder, fail: (e: unknown) => void): void {
  const { path, type } = entry;
  if (type === 'Directory') {
    builder.addDirectory(path.endsWith('/') ? path : `${path}/`);
    entry.resume();
    return;
  }
  if (!FILE_TYPES.has(type)) {
    const what = REFUSED[type] ?? `${type} entry`;
    throw new SkillBundleError(`${path} is a ${what}; skills may hold only files and folders`, path);
  }
  builder.checkDeclaredSize(path, entry.size);
  const chunks: Buffer[] = [];
  entry.on('data', (chunk: Buffer) => chunks.push(chunk));
  entry.on('end', () => {
    try {
      builder.addFile(path, Buffer.concat(chunks));
    } catch (e) {
      fail(e);
    }
  });
}
