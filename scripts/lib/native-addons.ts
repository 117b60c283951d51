/**
 * Native addons among the production dependencies, and whether each is a Node-API addon. Node-API
 * addons (they export `napi_register_module_v1`) load in every Node and in Electron; an addon built
 * against one Node's C++ ABI (NODE_MODULE_VERSION) loads only there, which is how better-sqlite3
 * built for Node 20 kept the desktop app from starting.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface Addon {
  file: string;
  nodeApi: boolean;
}

/** Folders of the packages `npm ci --omit=dev` would install, from the lock file. */
export function productionPackageDirs(root: string): string[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([path, meta]) => path.startsWith('node_modules/') && !meta.dev && !meta.devOptional)
    .map(([path]) => join(root, path))
    .filter((dir) => existsSync(dir));
}

function nodeFiles(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    // Nested node_modules are packages of their own, listed in the lock file separately.
    if (entry.isDirectory() && entry.name !== 'node_modules') nodeFiles(full, found);
    else if (entry.isFile() && entry.name.endsWith('.node')) found.push(full);
  }
  return found;
}

const ELF_MACHINE: Partial<Record<NodeJS.Architecture, number>> = { x64: 0x3e, arm64: 0xb7, ia32: 0x03, arm: 0x28 };

/** An ELF shared object for this machine's architecture (a binary for another platform cannot load here). */
export function loadsOnThisPlatform(file: string): boolean {
  if (process.platform !== 'linux' || statSync(file).size < 20) return false;
  const header = Buffer.alloc(20);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, 20, 0);
  } finally {
    closeSync(fd);
  }
  const isElf = header.readUInt32BE(0) === 0x7f454c46;
  return isElf && header.readUInt16LE(18) === ELF_MACHINE[process.arch];
}

/** Whether the shared object exports Node-API's entry point, read from its dynamic symbol table. */
export function exportsNodeApi(file: string): boolean {
  let symbols: string;
  try {
    symbols = execFileSync('nm', ['-D', '--defined-only', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('`nm` is missing: install binutils (apt-get install -y binutils) to check native addons');
    }
    throw e;
  }
  return /\bnapi_register_module_v1\b/.test(symbols);
}

export function productionAddons(root: string): Addon[] {
  return productionPackageDirs(root)
    .flatMap((dir) => nodeFiles(dir))
    .filter(loadsOnThisPlatform)
    .map((file) => ({ file, nodeApi: exportsNodeApi(file) }));
}
