/**
 * Text-file helpers shared by the files tools: binary detection (a NUL byte or invalid UTF-8 in the
 * first 8 KiB, as git and grep decide) and atomic writes (a temporary file in the same directory,
 * then rename, so a reader never sees half a file and a crash leaves the old content intact).
 */
import { randomBytes } from 'node:crypto';
import { open, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

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

export async function sniffBinary(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    return looksBinary(buf.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/**
 * Writes `data` to `target` atomically. A symlink target (already checked to stay inside the
 * workspace) is written through: the real file is replaced, not the link. The file mode is kept.
 */
export async function atomicWrite(target: string, data: Buffer): Promise<void> {
  const real = await realpath(target).catch(() => target);
  const previous = await stat(real).catch(() => null);
  const tmp = join(dirname(real), `.${basename(real)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, data, { flag: 'wx', mode: previous ? previous.mode & 0o7777 : 0o666 });
    await rename(tmp, real);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
