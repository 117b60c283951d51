/**
 * Paths on an Android device as the refusal rules compare them: `.`, `..` and repeated slashes
 * resolved, relative paths taken from every directory the line may have changed into, the
 * symbolic links a phone has (`/sdcard` → `/storage/self/primary` → … → `/storage/emulated/0`,
 * `/data/user/0` → `/data/data`, so `/sdcard/..` is tried both as `/` and as `/storage/emulated`)
 * followed, and the names one folder has on a phone (`/data/media/0` is `/storage/emulated/0`)
 * mapped to one spelling. A protected root is a path whose removal would break the device or wipe
 * user data; removing any folder above one is the same, so every ancestor is protected too.
 */
import { type Atom, type Field, globAt, hasGlob, staticText } from './word-fields';

/** The directories the command may be in at some point: null when not known. */
export type Cwds = readonly string[] | null;

const TOP_LEVEL =
  'system system_ext vendor product odm oem apex boot proc sys dev bin etc sbin metadata persist mnt cache config ' +
  'storage sdcard data acct debug_ramdisk linkerconfig lib lib64 efs firmware postinstall second_stage_resources ' +
  'odm_dlkm vendor_dlkm system_dlkm bootstrap-apex d';
const UNDER_DATA =
  'data app system system_ce system_de misc misc_ce misc_de user user_de media vendor vendor_ce vendor_de adb apex ' +
  'dalvik-cache property unencrypted';
const ROOTS = [
  ...TOP_LEVEL.split(' ').map((n) => `/${n}`),
  ...UNDER_DATA.split(' ').map((n) => `/data/${n}`),
  '/storage/emulated/0',
];

/** Other names of one folder, longest first: each maps to the spelling the rules use. */
const ALIASES: [string, string][] = [
  ['/mnt/runtime/default/emulated', '/storage/emulated'],
  ['/mnt/runtime/read/emulated', '/storage/emulated'],
  ['/mnt/runtime/write/emulated', '/storage/emulated'],
  ['/mnt/runtime/full/emulated', '/storage/emulated'],
  ['/mnt/pass_through/0/emulated', '/storage/emulated'],
  ['/mnt/user/0/emulated', '/storage/emulated'],
  ['/storage/emulated/legacy', '/storage/emulated/0'],
  ['/storage/self/primary', '/storage/emulated/0'],
  ['/mnt/user/0/primary', '/storage/emulated/0'],
  ['/mnt/sdcard', '/storage/emulated/0'],
  ['/data/media', '/storage/emulated'],
  ['/data/user/0', '/data/data'],
  ['/sdcard', '/storage/emulated/0'],
];

/** Symbolic links of Android devices (across versions), so `..` after one is also tried from its target. */
const LINKS: Record<string, string[]> = {
  '/sdcard': ['/storage/self/primary', '/mnt/sdcard'],
  '/mnt/sdcard': ['/storage/self/primary'],
  '/storage/self/primary': ['/mnt/user/0/primary'],
  '/mnt/user/0/primary': ['/storage/emulated/0'],
  '/storage/emulated/legacy': ['/mnt/shell/emulated/0'],
  '/data/user/0': ['/data/data'],
  '/etc': ['/system/etc'],
  '/bin': ['/system/bin'],
  '/d': ['/sys/kernel/debug'],
  '/vendor': ['/system/vendor'],
  '/product': ['/system/product'],
  '/system_ext': ['/system/system_ext'],
  '/odm': ['/vendor/odm'],
  '/cache': ['/data/cache'],
};

const MAX_CANDIDATES = 64;
/** Deeper paths are not followed (no protected root is that deep; the limit bounds the work). */
const MAX_COMPONENTS = 128;

export function canonical(path: string): string {
  let p = path;
  for (let round = 0; round < 4; round++) {
    const hit = ALIASES.find(([from]) => p === from || p.startsWith(`${from}/`));
    if (!hit) return p;
    p = hit[1] + p.slice(hit[0].length);
  }
  return p;
}

/**
 * Protected roots, their ancestors, and the ancestors of every other name of one (`/mnt/user/0` holds
 * `/mnt/user/0/primary`).
 */
const PROTECTED = new Set<string>();
const addWithAncestors = (path: string) => {
  for (let p = path; ; p = p.slice(0, p.lastIndexOf('/')) || '/') {
    PROTECTED.add(p);
    if (p === '/') break;
  }
};
for (const root of ROOTS) addWithAncestors(canonical(root));
for (const [from] of ALIASES) addWithAncestors(from);

/** Every spelling of every protected path, for matching patterns against. */
const SPELLINGS = [...PROTECTED];
for (const p of PROTECTED)
  for (const [from, to] of ALIASES) if (p === to || p.startsWith(`${to}/`)) SPELLINGS.push(from + p.slice(to.length));
for (const from of Object.keys(LINKS)) SPELLINGS.push(from);
SPELLINGS.push('/init', '/init.rc');

/** The protected root a path is or lies above, in the rules' spelling, or null. */
export function protectedRoot(path: string): string | null {
  const c = canonical(path);
  if (PROTECTED.has(c) || /^\/init[^/]*$/.test(c)) return c;
  return PROTECTED.has(path) ? path : null;
}

type Segment = { lit: string } | { re: string; pure: boolean };

function componentsOf(atoms: Atom[]): Atom[][] {
  const out: Atom[][] = [[]];
  for (const a of atoms) {
    if ('ch' in a && a.ch === '/') out.push([]);
    else out.at(-1)!.push(a);
  }
  return out;
}

const escapeRe = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** A component as a literal name, or as the RegExp source of the pattern it is (mksh's `*`, `?`, `[…]`). */
function segmentOf(atoms: Atom[]): Segment {
  if (!hasGlob(atoms)) return { lit: atoms.map((a) => ('ch' in a ? a.ch : '')).join('') };
  let re = '';
  let pure = true;
  for (let i = 0; i < atoms.length; i++) {
    const a = atoms[i] as { ch: string; quoted: boolean };
    if (!globAt(atoms, i)) {
      re += escapeRe(a.ch);
      pure = false;
    } else if (a.ch === '*') re += '[^/]*';
    else if (a.ch === '?') re += '[^/]';
    else {
      const close = atoms.findIndex((b, j) => j > i + 1 && 'ch' in b && b.ch === ']');
      const inner = atoms.slice(i + 1, close).map((b) => ('ch' in b ? b.ch : ''));
      if (inner[0] === '!') inner[0] = '^';
      re += `[${inner.map((ch, k) => (k === 0 && ch === '^' ? ch : ch.replace(/[\\\]]/g, '\\$&'))).join('')}]`;
      i = close;
    }
  }
  return { re, pure };
}

const isLiteral = (path: Segment[]): path is { lit: string }[] => path.every((s) => 'lit' in s);
const joined = (path: { lit: string }[]): string => `/${path.map((s) => s.lit).join('/')}`;
const split = (path: string): Segment[] => (path === '/' ? [] : path.slice(1).split('/')).map((lit) => ({ lit }));

/** Every path a field may name (patterns kept as segments), or null when that cannot be told from the text. */
function candidates(field: Field, cwds: Cwds): Segment[][] | null {
  if (field.dynamic) return null;
  const absolute = 'ch' in (field.atoms[0] ?? { exp: null }) && (field.atoms[0] as { ch: string }).ch === '/';
  if (!absolute && cwds === null) return null;
  let paths: Segment[][] = absolute ? [[]] : cwds!.map(split);
  const components = componentsOf(field.atoms);
  if (components.length > MAX_COMPONENTS) return null;
  for (const atoms of components) {
    const seg = segmentOf(atoms);
    if ('lit' in seg && (seg.lit === '' || seg.lit === '.')) continue;
    if ('lit' in seg && seg.lit === '..') {
      // After a pattern, `..` leaves from whatever the pattern matched (a link's target, maybe).
      if (paths.some((p) => !isLiteral(p))) return null;
      paths = paths.map((p) => p.slice(0, -1));
    } else {
      paths = paths.map((p) => [...p, seg]);
      for (let i = 0; i < paths.length && paths.length <= MAX_CANDIDATES; i++) {
        const p = paths[i]!;
        if (isLiteral(p)) for (const target of LINKS[joined(p)] ?? []) paths.push(split(target));
      }
    }
    paths = [
      ...new Map(paths.map((p) => [p.map((s) => ('lit' in s ? `=${s.lit}` : `~${s.re}`)).join('/'), p])).values(),
    ];
    if (paths.length > MAX_CANDIDATES) return null;
  }
  return paths;
}

/** The pattern as a RegExp, or null for one this file does not translate (character classes, bad ranges). */
function patternOf(path: Segment[]): RegExp | null {
  if (path.some((s) => 're' in s && s.re.includes('[:'))) return null;
  try {
    return new RegExp(`^/${path.map((s) => ('lit' in s ? escapeRe(s.lit) : s.re)).join('/')}$`);
  } catch {
    return null;
  }
}

/** The protected root the path (or pattern) may name; `undefined` when the pattern cannot be read. */
function patternHits(path: Segment[]): string | null | undefined {
  if (isLiteral(path)) return protectedRoot(joined(path));
  const re = patternOf(path);
  if (!re) return undefined;
  const hit = SPELLINGS.find((s) => re.test(s));
  return hit ? canonical(hit) : null;
}

export type TargetCheck =
  | { kind: 'protected'; root: string; contents: boolean }
  | { kind: 'unresolvable' }
  | { kind: 'ok'; paths: string[] };

/**
 * Whether removing what `field` names could remove a protected root: the path itself (any
 * spelling, via links or aliases), a pattern that could match one, or a bare wildcard (`*`, `?*`)
 * inside one, which takes all its contents.
 */
export function checkTarget(field: Field, cwds: Cwds): TargetCheck {
  const paths = candidates(field, cwds);
  if (!paths) return { kind: 'unresolvable' };
  for (const path of paths) {
    const last = path.at(-1);
    if (last && 're' in last && last.pure) {
      const parent = patternHits(path.slice(0, -1));
      if (parent === undefined) return { kind: 'unresolvable' };
      if (parent) return { kind: 'protected', root: parent, contents: true };
    }
    const root = patternHits(path);
    if (root === undefined) return { kind: 'unresolvable' };
    if (root) return { kind: 'protected', root, contents: false };
  }
  return { kind: 'ok', paths: paths.filter(isLiteral).map(joined) };
}

/** The directories `cd <field>` may lead to, or null when that cannot be told from the text. */
export function directoriesOf(field: Field, cwds: Cwds): string[] | null {
  if (staticText(field) === null) return null;
  const paths = candidates(field, cwds);
  return paths?.every(isLiteral) ? paths.map(joined) : null;
}

/** The field names /dev/null and nothing else. */
export function isDevNull(field: Field, cwds: Cwds): boolean {
  if (staticText(field) === null) return false;
  const paths = candidates(field, cwds);
  return paths !== null && paths.length > 0 && paths.every((p) => isLiteral(p) && joined(p) === '/dev/null');
}
