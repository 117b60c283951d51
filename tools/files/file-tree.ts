/**
 * Whole-folder operations through anchored directories: inspecting, copying and deleting a tree.
 * Each sub-folder is opened with O_NOFOLLOW from the one that holds it, so a folder swapped for a
 * link during the walk is refused, never entered; links inside are never followed (a copy skips
 * them, a deletion removes the link itself); every file copied is opened and checked as read_file
 * opens it.
 */
import { constants } from 'node:fs';
import { mkdir, lstat, readdir, rmdir, unlink } from 'node:fs/promises';
import type { AnchoredDir } from './anchored-dir';
import { notRegularFile, refuseSecret } from './confined-open';
import type { FilesConfig } from './options';
import { hardLinksDenied } from './path-guard';
import { copyFrom } from './text-file';

export interface CopyCounts {
  skippedLinks: number;
  /** Pipes, sockets and devices, which are not copied. */
  skippedOther: number;
}

const inner = (rel: string, name: string) => (rel === '.' ? name : `${rel}/${name}`);

/** Refuses, before anything is copied, a tree that holds a secret or a file with several hard links. */
export async function inspectTree(config: FilesConfig, dir: AnchoredDir, rel: string): Promise<void> {
  for (const entry of await readdir(dir.listing(), { withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const info = await lstat(dir.child(entry.name)).catch(() => null);
    if (!info) continue;
    const path = inner(rel, entry.name);
    refuseSecret(config, dir, entry.name, info, path);
    if (info.isFile() && info.nlink > 1) throw hardLinksDenied(path, info.nlink);
    if (info.isDirectory()) {
      const sub = await dir.openDir(entry.name);
      try {
        await inspectTree(config, sub, path);
      } finally {
        await sub.close();
      }
    }
  }
}

/** Copies the entries of `from` into the (new, empty) folder `to`. */
export async function copyTree(
  config: FilesConfig,
  from: AnchoredDir,
  to: AnchoredDir,
  rel: string,
  counts: CopyCounts,
): Promise<void> {
  for (const entry of await readdir(from.listing(), { withFileTypes: true })) {
    const { name } = entry;
    const path = inner(rel, name);
    if (entry.isSymbolicLink()) counts.skippedLinks += 1;
    else if (entry.isDirectory()) {
      const source = await from.openDir(name);
      try {
        refuseSecret(config, from, name, source.id, path);
        await to.confirm();
        await mkdir(to.child(name));
        const target = await to.openDir(name);
        try {
          await copyTree(config, source, target, path, counts);
        } finally {
          await target.close();
        }
      } finally {
        await source.close();
      }
    } else if (entry.isFile()) await copyOne(config, from, to, name, path);
    else counts.skippedOther += 1;
  }
}

async function copyOne(config: FilesConfig, from: AnchoredDir, to: AnchoredDir, name: string, path: string) {
  const source = await from.openFile(name, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await source.stat();
    refuseSecret(config, from, name, info, path);
    if (!info.isFile()) throw notRegularFile(path, 'source');
    if (info.nlink > 1) throw hardLinksDenied(path, info.nlink);
    const target = await to.openFile(
      name,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      info.mode & 0o777,
    );
    try {
      await copyFrom(source)(target);
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/** Deletes the folder `name` of `parent` and everything in it; links inside are removed, never followed. */
export async function deleteTree(parent: AnchoredDir, name: string): Promise<void> {
  const dir = await parent.openDir(name);
  try {
    for (const entry of await readdir(dir.listing(), { withFileTypes: true })) {
      if (entry.isDirectory()) await deleteTree(dir, entry.name);
      else {
        await dir.confirm();
        await unlink(dir.child(entry.name));
      }
    }
  } finally {
    await dir.close();
  }
  await parent.confirm();
  await rmdir(parent.child(name));
}
