/**
 * The sandbox's root file systems, in the data dir: `DATA/terminal/rootfs/<name>/` is the tree the
 * sandbox sees as `/`, and `<name>.json` beside it (outside the tree, so nothing inside the sandbox
 * can rewrite it) records where it came from and whether it was finished. A tree without a
 * finished record is half-made: an interrupted bootstrap or extraction, to be redone.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, posix } from 'node:path';

export const ROOTFS_NAME = /^[a-z0-9][a-z0-9._-]{0,40}$/;

export type RootfsSource =
  | { kind: 'debootstrap'; suite: string; mirror: string; variant: string; distro: 'debian' | 'ubuntu' }
  | { kind: 'tarball'; path: string };

export interface RootfsRecord {
  name: string;
  source: RootfsSource;
  state: 'building' | 'complete';
  createdAt: number;
  completedAt?: number;
  /** Bytes on disk when it was finished. */
  sizeBytes?: number;
}

export interface RootfsEntry {
  name: string;
  dir: string;
  /** Missing for a tree nobody recorded (left by hand or by an older version): treated as half-made. */
  record?: RootfsRecord;
  complete: boolean;
}

export class RootfsStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = join(dataDir, 'terminal', 'rootfs');
  }

  dir(name: string): string {
    return join(this.root, name);
  }

  private recordPath(name: string): string {
    return join(this.root, `${name}.json`);
  }

  get(name: string): RootfsEntry | undefined {
    const dir = this.dir(name);
    if (!existsSync(dir)) return undefined;
    const record = this.readRecord(name);
    return { name, dir, ...(record ? { record } : {}), complete: record?.state === 'complete' };
  }

  list(): RootfsEntry[] {
    if (!existsSync(this.root)) return [];
    return readdirSync(this.root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && ROOTFS_NAME.test(e.name))
      .map((e) => this.get(e.name))
      .filter((e): e is RootfsEntry => e !== undefined)
      .sort((a, b) => (b.record?.completedAt ?? 0) - (a.record?.completedAt ?? 0));
  }

  /** The root file system a sandbox terminal uses when none is named: the newest finished one. */
  defaultName(): string | undefined {
    return this.list().find((e) => e.complete)?.name;
  }

  /** Starts a new tree (an existing half-made one is removed first). */
  begin(name: string, source: RootfsSource, now = Date.now()): string {
    const dir = this.dir(name);
    this.remove(name);
    this.ensureRoot();
    mkdirSync(dir, { recursive: true });
    this.writeRecord({ name, source, state: 'building', createdAt: now });
    return dir;
  }

  /** Marks a started tree finished, with its size. */
  finish(name: string, sizeBytes: number, now = Date.now()): RootfsRecord {
    const record = this.readRecord(name);
    if (!record) throw new Error(`no record for root file system '${name}'`);
    const done: RootfsRecord = { ...record, state: 'complete', completedAt: now, sizeBytes };
    this.writeRecord(done);
    return done;
  }

  /**
   * The store's folders are the owner's alone: a root file system holds set-user-ID programs of its
   * distribution (su, mount), which another account of this machine must not reach.
   */
  private ensureRoot(): void {
    mkdirSync(this.root, { recursive: true, mode: 0o700 });
    for (const dir of [join(this.root, '..'), this.root]) chmodSync(dir, 0o700);
  }

  remove(name: string): void {
    rmSync(this.dir(name), { recursive: true, force: true });
    rmSync(this.recordPath(name), { force: true });
  }

  private readRecord(name: string): RootfsRecord | undefined {
    try {
      return JSON.parse(readFileSync(this.recordPath(name), 'utf8')) as RootfsRecord;
    } catch {
      return undefined;
    }
  }

  private writeRecord(record: RootfsRecord): void {
    this.ensureRoot();
    const path = this.recordPath(record.name);
    writeFileSync(`${path}.tmp`, JSON.stringify(record, null, 2));
    renameSync(`${path}.tmp`, path);
  }
}

/**
 * Whether `path` (absolute, as the sandbox sees it) names a file inside the tree, following
 * symlinks as the sandbox would: an absolute link is read relative to the tree's root, never the
 * host's. Used to pick the shell (Debian's /bin is a link to usr/bin).
 */
export function existsInTree(tree: string, path: string, depth = 0): boolean {
  if (depth > 20) return false;
  const parts = posix.normalize(path).split('/').filter(Boolean);
  let current = '/';
  for (let i = 0; i < parts.length; i++) {
    const next = posix.join(current, parts[i]!);
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(join(tree, next));
    } catch {
      return false;
    }
    if (stat.isSymbolicLink()) {
      const target = readlinkSync(join(tree, next));
      const resolved = target.startsWith('/') ? target : posix.join(current, target);
      return existsInTree(tree, posix.join(resolved, ...parts.slice(i + 1)), depth + 1);
    }
    current = next;
  }
  return true;
}
