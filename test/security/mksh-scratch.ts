/**
 * A scratch folder laid out like the device's file system (`sdcard` → `storage/self/primary` →
 * `storage/emulated/0`, `data/media/0`, `data/user/0` → `data/data`, `data/local/tmp`, `proc/version`…),
 * and a way to run a device command line in Debian's mksh inside it: the line's absolute device
 * paths are rewritten into the scratch root, the shell starts there (a device's `adb shell` starts
 * in `/`), and, when the tests run as root, the shell runs as `nobody`, which owns only the scratch.
 * A snapshot records every entry's type, mode, size, mtime, ctime, link target and content hash.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

export const MKSH = '/bin/mksh';
export const TOYBOX = '/usr/bin/toybox';

export function requireMksh(): void {
  if (!existsSync(MKSH) || !existsSync(TOYBOX))
    throw new Error(`The shell-gate corpus runs in Debian's mksh and toybox: apt-get install -y mksh toybox`);
}

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

const FILES: Record<string, string> = {
  'storage/emulated/0/notes.txt': 'a note about bananas\n',
  'storage/emulated/0/Download/old/a.txt': 'old download\n',
  'storage/emulated/0/Download/b.txt': 'another\n',
  'storage/emulated/0/DCIM/Camera/p.jpg': 'jpeg bytes',
  'storage/emulated/0/run.sh': 'echo sourced > sourced.txt\n',
  'data/media/0/media.txt': 'media view\n',
  'data/data/com.example.notes/files/db': 'app data\n',
  'data/local/tmp/tool.txt': 'scratch\n',
  'proc/version': 'Linux version 5.10.0-android (toolgate@scratch) #1 SMP\n',
  'proc/meminfo': 'MemTotal: 3000000 kB\nMemFree: 1000000 kB\nCached: 500000 kB\n',
  'system/build.prop': 'ro.product.model=Toolgate\n',
};
const DIRS = ['storage/emulated/0/empty', 'system/bin', 'vendor', 'mnt', 'dev'];
const LINKS: Record<string, string> = {
  sdcard: 'storage/self/primary',
  'storage/self/primary': '../emulated/0',
  'data/user/0': '../data',
};

/** Creates the device-like tree under `root` (which must not exist yet). */
export function buildScratch(root: string): void {
  mkdirSync(root);
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  for (const dir of DIRS) mkdirSync(join(root, dir), { recursive: true });
  for (const [path, target] of Object.entries(LINKS)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    symlinkSync(target, join(root, path));
  }
  if (asRoot) for (const entry of walk(root)) lchownSync(entry, NOBODY, NOBODY);
}

function walk(root: string): string[] {
  const out = [root];
  for (const name of readdirSync(root).sort()) {
    const path = join(root, name);
    if (lstatSync(path).isDirectory()) out.push(...walk(path));
    else out.push(path);
  }
  return out;
}

/** Everything about the tree a write could change (atimes aside). */
export function snapshot(root: string): string {
  return walk(root)
    .map((path) => {
      const st = lstatSync(path, { bigint: true });
      const kind = st.isSymbolicLink()
        ? `link→${readlinkSync(path)}`
        : st.isDirectory()
          ? 'dir'
          : st.isFile()
            ? 'file'
            : 'other';
      const hash = st.isFile() ? createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16) : '';
      const times = `${st.mtimeNs} ${st.ctimeNs}`;
      return `${path.slice(root.length) || '/'} ${kind} ${st.mode.toString(8)} ${st.size} ${times} ${hash}`;
    })
    .join('\n');
}

/** Directory names that stand for the device's top-level folders in corpus lines. */
const DEVICE_ROOTS = 'sdcard|storage|data|proc|system|vendor|mnt|nope|x|y|z';
const DEVICE_PATH = new RegExp(`(^|[\\s'"=<>|;&(){},:\`])/(?=(${DEVICE_ROOTS})\\b|[\\s'"*.)\`;|&]|$)`, 'g');

/** The line with its absolute device paths moved under `root` (`/dev/null` and `/bin` stay the host's). */
export function rewrite(line: string, root: string): string {
  return line.replace(DEVICE_PATH, (_, before: string) => `${before}${root}/`);
}

/** A folder of links making every toybox applet the command of its name, first on PATH. */
export function toyboxBin(dir: string): string {
  mkdirSync(dir);
  const applets = spawnSync(TOYBOX, [], { encoding: 'utf8' }).stdout.split(/\s+/).filter(Boolean);
  for (const applet of applets) if (applet !== 'toybox') symlinkSync(TOYBOX, join(dir, applet));
  return dir;
}

export interface ShellRun {
  status: number | null;
  output: string;
  /** The names of the commands mksh ran, from its execution trace (`set -x`). */
  traced: string[];
}

const PS4 = '+TOOLGATE-TRACE ';

/** Runs the line; `toybin` puts toybox's applets first on PATH, `path` replaces PATH altogether. */
export function runInMksh(line: string, root: string, opts: { toybin?: string; path?: string } = {}): ShellRun {
  const argv = [MKSH, '-xc', rewrite(line, root)];
  const command = asRoot
    ? ['/usr/bin/setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...argv]
    : argv;
  const r = spawnSync(command[0]!, command.slice(1), {
    cwd: root,
    env: {
      PATH: opts.path ?? `${opts.toybin ? `${opts.toybin}:` : ''}/usr/bin:/bin`,
      HOME: root,
      LANG: 'C',
      PS4,
    },
    input: '',
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (r.error) throw r.error;
  const traced = r.stderr
    .split('\n')
    .filter((l) => l.startsWith(PS4))
    .map((l) =>
      l
        .slice(PS4.length)
        .split(' ')[0]!
        .replace(/^'(.*)'$/, '$1'),
    )
    .filter((w) => w !== '' && !/^[0-9]*[<>&]/.test(w) && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w))
    .map((w) => w.slice(w.lastIndexOf('/') + 1));
  return { status: r.status, output: `${r.stdout}${r.stderr}`, traced };
}
