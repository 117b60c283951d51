/**
 * Reads a .zip or .skill archive (a .skill file is a zip) into a bundle, entry by entry, without
 * writing anything. Refused: symbolic links and device, pipe or socket entries (by the Unix mode a
 * zip keeps in its external attributes), encrypted entries, more entries than the limit (read from
 * the central directory before any entry is inflated), and entries past the size limits, checked
 * against the declared size first and against the bytes actually inflated as they come.
 */
import type { Readable } from 'node:stream';
import { type Entry, fromBufferPromise, getFileNameLowLevel } from 'yauzl';
import { SKILL_LIMITS } from './limits';
import { SkillBundleBuilder, SkillBundleError, type SkillFile } from './skill-bundle';

const S_IFMT = 0o170000;
const TYPES = new Map<number, string>([
  [0o120000, 'symbolic link'],
  [0o020000, 'character device'],
  [0o060000, 'block device'],
  [0o010000, 'named pipe'],
  [0o140000, 'socket'],
]);

export async function readZip(archive: Buffer): Promise<SkillFile[]> {
  let zip: Awaited<ReturnType<typeof fromBufferPromise>>;
  try {
    zip = await fromBufferPromise(archive, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true });
  } catch (e) {
    throw new SkillBundleError(`the file is not a readable zip archive (${(e as Error).message})`);
  }
  if (zip.entryCount > SKILL_LIMITS.entries)
    throw new SkillBundleError(`the archive holds ${zip.entryCount} entries; at most ${SKILL_LIMITS.entries}`);
  const builder = new SkillBundleBuilder();
  try {
    for await (const entry of zip.eachEntry()) await addEntry(zip, entry, builder);
  } catch (e) {
    zip.close();
    if (e instanceof SkillBundleError) throw e;
    throw new SkillBundleError(`the zip archive is damaged (${(e as Error).message})`);
  }
  return builder.build();
}

async function addEntry(zip: Awaited<ReturnType<typeof fromBufferPromise>>, entry: Entry, builder: SkillBundleBuilder) {
  const name = getFileNameLowLevel(
    entry.generalPurposeBitFlag,
    entry.fileName as unknown as Buffer,
    entry.extraFields,
    true,
  );
  const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
  const special = TYPES.get(mode);
  if (special) throw new SkillBundleError(`${name} is a ${special}; skills may hold only files and folders`, name);
  if ((entry.generalPurposeBitFlag & 0x1) !== 0)
    throw new SkillBundleError(`${name} is encrypted; skills are installed from unencrypted archives only`, name);
  if (name.endsWith('/')) {
    builder.addDirectory(name);
    return;
  }
  builder.checkDeclaredSize(name, entry.uncompressedSize);
  const stream = await zip.openReadStreamPromise(entry);
  builder.addFile(name, await readCapped(stream, builder.room(), name));
}

/** The stream's bytes, refused as soon as they pass `max` (an entry that lies about its size). */
export async function readCapped(stream: Readable, max: number, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) {
      stream.destroy();
      throw new SkillBundleError(`${name} inflates to more than ${max} bytes`, name);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}
