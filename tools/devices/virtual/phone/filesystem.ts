/**
 * The phone's in-memory file system. `/sdcard` is an alias of `/storage/emulated/0`, as on a
 * phone. The shell user may write under the shared storage and `/data/local/tmp` only.
 */
import { posix } from 'node:path';

export const S_IFDIR = 0o040000;
export const S_IFREG = 0o100000;

export interface FsEntry {
  kind: 'file' | 'dir';
  data: Buffer;
  /** Permission bits only (the file type comes from `kind`). */
  perm: number;
  /** Seconds since the epoch. */
  mtime: number;
}

const WRITABLE_ROOTS = ['/storage/emulated/0', '/data/local/tmp'];
const READ_ONLY_ROOTS = ['/system', '/vendor', '/product', '/apex'];

export function modeOf(entry: FsEntry): number {
  return (entry.kind === 'dir' ? S_IFDIR : S_IFREG) | entry.perm;
}

export class VirtualFs {
  private readonly entries = new Map<string, FsEntry>();

  constructor(private readonly nowSeconds: () => number) {
    for (const dir of [
      '/',
      '/data',
      '/data/local',
      '/data/local/tmp',
      '/storage',
      '/storage/emulated',
      '/system',
      '/system/bin',
      '/dev',
      '/proc',
    ]) {
      this.entries.set(dir, this.dir());
    }
    for (const dir of ['Download', 'DCIM/Camera', 'Pictures', 'Music']) this.seedDir(`/storage/emulated/0/${dir}`);
  }

  normalize(path: string): string {
    const abs = posix.normalize(path.startsWith('/') ? path : `/${path}`).replace(/\/+$/, '') || '/';
    if (abs === '/sdcard' || abs.startsWith('/sdcard/')) return `/storage/emulated/0${abs.slice('/sdcard'.length)}`;
    return abs;
  }

  stat(path: string): FsEntry | null {
    return this.entries.get(this.normalize(path)) ?? null;
  }

  read(path: string): Buffer | string {
    const entry = this.stat(path);
    if (!entry) return 'No such file or directory';
    if (entry.kind === 'dir') return 'Is a directory';
    return entry.data;
  }

  /** Entries of a directory, sorted by name, or an error message. */
  list(path: string): { name: string; entry: FsEntry }[] | string {
    const dir = this.normalize(path);
    const entry = this.entries.get(dir);
    if (!entry) return 'No such file or directory';
    if (entry.kind !== 'dir') return 'Not a directory';
    const prefix = dir === '/' ? '/' : `${dir}/`;
    const out: { name: string; entry: FsEntry }[] = [];
    for (const [p, e] of this.entries) {
      if (p !== dir && p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
        out.push({ name: p.slice(prefix.length), entry: e });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Why the shell user may not write here, or null when it may. */
  writeDenied(path: string): string | null {
    const p = this.normalize(path);
    if (WRITABLE_ROOTS.some((root) => p === root || p.startsWith(`${root}/`))) return null;
    if (p === '/' || READ_ONLY_ROOTS.some((root) => p === root || p.startsWith(`${root}/`)))
      return 'Read-only file system';
    return 'Permission denied';
  }

  write(path: string, data: Buffer, options: { append?: boolean; perm?: number; mtime?: number } = {}): string | null {
    const p = this.normalize(path);
    const denied = this.writeDenied(p);
    if (denied) return denied;
    const parent = this.entries.get(posix.dirname(p));
    if (!parent) return 'No such file or directory';
    if (parent.kind !== 'dir') return 'Not a directory';
    const existing = this.entries.get(p);
    if (existing?.kind === 'dir') return 'Is a directory';
    const content = options.append && existing ? Buffer.concat([existing.data, data]) : data;
    this.entries.set(p, {
      kind: 'file',
      data: content,
      perm: options.perm ?? existing?.perm ?? 0o660,
      mtime: options.mtime ?? this.nowSeconds(),
    });
    return null;
  }

  mkdir(path: string, parents: boolean): string | null {
    const p = this.normalize(path);
    if (this.entries.has(p)) return parents ? null : 'File exists';
    const denied = this.writeDenied(p);
    if (denied) return denied;
    const parent = posix.dirname(p);
    if (!this.entries.has(parent)) {
      if (!parents) return 'No such file or directory';
      const error = this.mkdir(parent, true);
      if (error) return error;
    }
    this.entries.set(p, this.dir());
    return null;
  }

  remove(path: string, recursive: boolean): string | null {
    const p = this.normalize(path);
    const entry = this.entries.get(p);
    if (!entry) return 'No such file or directory';
    const denied = this.writeDenied(posix.dirname(p));
    if (denied) return denied;
    if (entry.kind === 'dir') {
      if (!recursive) return 'Is a directory';
      for (const key of [...this.entries.keys()]) if (key.startsWith(`${p}/`)) this.entries.delete(key);
    }
    this.entries.delete(p);
    return null;
  }

  /** Seeds a file regardless of permissions (the phone's own files). */
  seed(path: string, content: string | Buffer): void {
    const p = this.normalize(path);
    const parent = posix.dirname(p);
    if (!this.entries.has(parent)) {
      this.seedDir(parent);
    }
    this.entries.set(p, { kind: 'file', data: Buffer.from(content), perm: 0o644, mtime: this.nowSeconds() });
  }

  private seedDir(path: string): void {
    if (this.entries.has(path)) return;
    this.seedDir(posix.dirname(path));
    this.entries.set(path, this.dir());
  }

  private dir(): FsEntry {
    return { kind: 'dir', data: Buffer.alloc(0), perm: 0o771, mtime: this.nowSeconds() };
  }
}
