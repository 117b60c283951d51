/** Bytes a folder takes on disk (allocated blocks, each inode once), without following symlinks. */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export async function dirSize(root: string, signal?: AbortSignal): Promise<{ bytes: number; files: number }> {
  const seen = new Set<string>();
  let bytes = 0;
  let files = 0;
  const stack = [root];
  while (stack.length > 0) {
    if (signal?.aborted) break;
    const dir = stack.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      try {
        const s = await lstat(path);
        const key = `${s.dev}:${s.ino}`;
        if (seen.has(key)) continue;
        seen.add(key);
        bytes += s.blocks * 512;
        files++;
        if (s.isDirectory()) stack.push(path);
      } catch {
        // vanished while walking
      }
    }
  }
  return { bytes, files };
}
