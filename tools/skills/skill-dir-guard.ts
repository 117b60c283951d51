/**
 * Keeps the installed skills' files out of the file tools' reach even when the workspace is set
 * to the data dir or above it: every folder under DATA/skills is known by identity (device, inode),
 * and a file tool asking about anything in one of them is refused as a host secret. Only the
 * installer creates those folders, so the set is rebuilt after each install or removal.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FileId, SecretFiles } from '../files';

export class SkillDirGuard {
  private ids = new Set<string>();

  constructor(private readonly dir: string) {}

  refresh(): void {
    const ids = new Set<string>();
    const visit = (path: string, depth: number) => {
      const info = statSync(path, { throwIfNoEntry: false });
      if (!info?.isDirectory()) return;
      ids.add(key(info));
      if (depth > 16) return;
      for (const entry of readdirSafe(path)) if (entry.isDirectory()) visit(join(path, entry.name), depth + 1);
    };
    visit(this.dir, 0);
    this.ids = ids;
  }

  readonly secretFiles: SecretFiles = ({ parent, id }) =>
    this.ids.has(key(parent)) || (id !== undefined && this.ids.has(key(id)));
}

const key = (id: FileId) => `${id.dev}:${id.ino}`;

function readdirSafe(path: string) {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch {
    return [];
  }
}
