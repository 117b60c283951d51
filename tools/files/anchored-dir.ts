/**
 * A workspace directory held open by its descriptor, reached from the root one component at a
 * time with O_NOFOLLOW, each step checked to be the object its path names (fstat of what was
 * opened against lstat of the path). Names are then looked up in that very directory.
 *
 * On Linux the descriptor's /proc/self/fd/N entry stands for the open directory itself, so
 * `/proc/self/fd/N/name` is an openat(N, name): once a directory is open, no later swap of any
 * path component can redirect what is done in it, and where an open descriptor really is can be
 * asked of the kernel. Without /proc (macOS) each step is re-checked by path (identity unchanged,
 * real path still inside the root): a file swapped for a link is still refused, since O_NOFOLLOW
 * holds everywhere, but a process that swaps a folder of the path for a link and back while a
 * call runs can still slip an operation between a check and the act; Node offers no openat to
 * close that window.
 */
import { constants } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readlink, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isInside, pathDenied } from './path-guard';
import { type FileId, sameFile } from './secret-files';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = constants;
const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;

const errno = (e: unknown): unknown =>
  typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;

let procFd: Promise<boolean> | undefined;

/** Whether /proc/self/fd/N names the open object N itself (Linux with /proc mounted). */
function procFdWorks(): Promise<boolean> {
  procFd ??= (async () => {
    if (process.platform !== 'linux') return false;
    try {
      const root = await open('/', O_RDONLY | O_DIRECTORY);
      try {
        const at = `/proc/self/fd/${root.fd}`;
        return (await readlink(at)) === '/' && (await lstat(`${at}/.`)).isDirectory();
      } finally {
        await root.close();
      }
    } catch {
      return false;
    }
  })();
  return procFd;
}

/**
 * Leaves the /proc/self/fd route aside (`true`), as on a system without /proc, or returns to
 * detecting it (`false`): so the portable checks run, and are tested, on Linux too.
 */
export function usePortableChecks(portable: boolean): void {
  procFd = portable ? Promise.resolve(false) : undefined;
}

/** A link where the canonical path had none means the path was swapped after it was checked. */
async function swapOr(e: unknown, path: string, shown: string): Promise<unknown> {
  if (errno(e) === 'ELOOP') return pathDenied(shown, 'swapped');
  if (errno(e) === 'ENOTDIR' && (await lstat(path).catch(() => null))?.isSymbolicLink())
    return pathDenied(shown, 'swapped');
  return e;
}

function checkName(name: string): void {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0'))
    throw new Error(`not a single path component: ${JSON.stringify(name)}`);
}

export class AnchoredDir {
  private constructor(
    private readonly handle: FileHandle,
    /** The directory's canonical path when it was checked (messages and the no-/proc checks). */
    readonly path: string,
    readonly id: FileId,
    private readonly realRoot: string,
    private readonly byFd: boolean,
    /** The model's path, for refusals. */
    readonly shown: string,
  ) {}

  /**
   * Opens `dir`, a canonical path inside `realRoot`, walking down from the root. With `create`,
   * missing directories are made on the way, each inside the one just checked.
   */
  static async walk(realRoot: string, dir: string, shown: string, create = false): Promise<AnchoredDir> {
    if (!isInside(realRoot, dir)) throw pathDenied(shown, 'symlink-escape');
    let current = await AnchoredDir.openAt(realRoot, realRoot, realRoot, shown);
    const rel = relative(realRoot, dir);
    for (const segment of rel === '' ? [] : rel.split(sep)) {
      try {
        const next = await current.openDir(segment, create);
        await current.close();
        current = next;
      } catch (e) {
        await current.close();
        throw e;
      }
    }
    return current;
  }

  private static async openAt(realRoot: string, path: string, logical: string, shown: string): Promise<AnchoredDir> {
    let handle: FileHandle;
    try {
      handle = await open(path, DIR_FLAGS);
    } catch (e) {
      throw await swapOr(e, path, shown);
    }
    try {
      const id = await handle.stat();
      const named = await lstat(path).catch(() => null);
      if (!named || !sameFile(id, named)) throw pathDenied(shown, 'swapped');
      const dir = new AnchoredDir(handle, logical, id, realRoot, await procFdWorks(), shown);
      await dir.confirmHolds(handle);
      return dir;
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  /** The child directory `name`, never through a link. */
  async openDir(name: string, create = false): Promise<AnchoredDir> {
    checkName(name);
    const attempt = () => AnchoredDir.openAt(this.realRoot, this.child(name), join(this.path, name), this.shown);
    try {
      return await attempt();
    } catch (e) {
      if (!create || errno(e) !== 'ENOENT') throw e;
    }
    await this.confirm();
    await mkdir(this.child(name)).catch((e: unknown) => {
      if (errno(e) !== 'EEXIST') throw e;
    });
    return attempt();
  }

  /**
   * Opens the entry `name` with O_NOFOLLOW (a link there fails instead of being followed) and
   * checks what was opened: the descriptor's identity is the one the name has now, and the kernel
   * (or, without /proc, the path) places it inside the root.
   */
  async openFile(name: string, flags: number, mode?: number): Promise<FileHandle> {
    checkName(name);
    const path = this.child(name);
    let handle: FileHandle;
    try {
      handle = await open(path, flags | O_NOFOLLOW, mode);
    } catch (e) {
      throw await swapOr(e, path, this.shown);
    }
    try {
      const opened = await handle.stat();
      const named = await lstat(path).catch(() => null);
      if (!named || !sameFile(opened, named)) throw pathDenied(this.shown, 'swapped');
      await this.confirmHolds(handle);
      return handle;
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  /** The path that names `name` in this very directory. */
  child(name: string): string {
    checkName(name);
    return this.byFd ? `/proc/self/fd/${this.handle.fd}/${name}` : join(this.path, name);
  }

  /** The path to read this directory's entries from. */
  listing(): string {
    return this.byFd ? `/proc/self/fd/${this.handle.fd}` : this.path;
  }

  /** Refuses unless the object open as `handle` lies inside the root (asked of the kernel where it can tell). */
  async confirmHolds(handle: FileHandle): Promise<void> {
    if (!this.byFd) return this.confirm();
    const at = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
    if (at === null || at.endsWith(' (deleted)') || !isInside(this.realRoot, at))
      throw pathDenied(this.shown, 'swapped');
  }

  /** Without /proc: refuses unless the path still names this directory and still leads inside the root. */
  async confirm(): Promise<void> {
    if (this.byFd) return;
    const named = await lstat(this.path).catch(() => null);
    const real = await realpath(this.path).catch(() => null);
    if (!named || !sameFile(named, this.id) || real === null || !isInside(this.realRoot, real))
      throw pathDenied(this.shown, 'swapped');
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}
