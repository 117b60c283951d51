/**
 * The workspace path guard: every path a model names must stay inside one root folder. Refused,
 * with PERMISSION_DENIED naming the rule: NUL bytes, Windows drive/UNC/backslash paths, `..`
 * that climbs out, absolute paths elsewhere, and symlinks whose real target lies outside (checked
 * on the real path of the nearest existing ancestor and of the target itself). Paths inside are
 * accepted whether relative or absolute. Exported for other families (browser upload, app install).
 * The guard judges names only: confined-open.ts then opens what they lead to without following
 * links and checks the open descriptor, which is what stops a swap between check and open.
 */
import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { ToolCallError } from '../core/result';

export type PathRule =
  | 'nul-byte'
  | 'windows-path'
  | 'outside-root'
  | 'parent-traversal'
  | 'symlink-escape'
  | 'dangling-symlink'
  | 'swapped'
  | 'secret-file'
  | 'hard-link';

const RULE_TEXT: Record<PathRule, string> = {
  'nul-byte': 'paths may not contain NUL bytes',
  'windows-path':
    'Windows drive, UNC and backslash paths are not accepted; use "/" separators relative to the workspace',
  'outside-root': 'absolute paths must lie inside the workspace root',
  'parent-traversal': '".." may not climb above the workspace root',
  'symlink-escape': 'a symbolic link on this path leads outside the workspace root',
  'dangling-symlink': 'a symbolic link on this path points to nothing, so where it leads cannot be checked',
  swapped:
    'it was replaced (by a symbolic link or another file) while it was being opened, so what was opened is not ' +
    'what was checked; nothing was read or written through it',
  'secret-file':
    "it is one of Toolgate's own secret files (its token, database, logs or host.json), which no tool may read, " +
    'change, copy, move or delete',
  'hard-link': 'it has more than one hard link; its other names may lie outside the workspace',
};

const RULE_HINT: Partial<Record<PathRule, string>> = {
  swapped: 'Something on this machine is changing the file while it is used; do not retry this path.',
  'secret-file': 'These files guard Toolgate itself; no tool call will reach them. Do not retry.',
  'hard-link':
    'A file with several names may be a window onto a file elsewhere. Ask the user to replace it with a plain copy ' +
    'if it belongs in the workspace; do not retry this path.',
};

const DEFAULT_HINT =
  'Only paths inside the workspace are allowed. Use a path relative ' +
  'to the workspace root (e.g. "src/index.ts"); do not retry this path.';

export function pathDenied(userPath: string, rule: PathRule): ToolCallError {
  return new ToolCallError('PERMISSION_DENIED', `Path "${printable(userPath)}" is refused: ${RULE_TEXT[rule]}.`, {
    hint: RULE_HINT[rule] ?? DEFAULT_HINT,
    data: { rule, path: printable(userPath) },
  });
}

/**
 * The hard-link rule: a regular file with more than one hard link is neither read nor written.
 * A hard link is a second name for the same file, and nothing records where the other names are:
 * one made inside the workspace to a file of the same file system outside it (a key, another
 * account's token) would otherwise read and change that file. Deleting or moving such a name is
 * allowed, since that touches the name and not the file.
 */
export function hardLinksDenied(userPath: string, links: number): ToolCallError {
  return new ToolCallError(
    'PERMISSION_DENIED',
    `Path "${printable(userPath)}" is refused: it has ${links} ` +
      'hard links; its other names may lie outside the workspace.',
    { hint: RULE_HINT['hard-link'] ?? DEFAULT_HINT, data: { rule: 'hard-link', path: printable(userPath), links } },
  );
}

function printable(p: string): string {
  return p.replace(/\0/g, '\\0').slice(0, 300);
}

export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The root's real path (links resolved): every check compares against it. */
export async function realRootOf(root: string): Promise<string> {
  try {
    return await realpath(root);
  } catch {
    throw new ToolCallError('EXECUTION_FAILED', `The workspace root "${root}" does not exist or cannot be read.`, {
      hint: 'The host is misconfigured; tell the user to choose an existing workspace folder.',
    });
  }
}

function lexicalTarget(root: string, realRoot: string, userPath: string): string {
  if (userPath.includes('\0')) throw pathDenied(userPath, 'nul-byte');
  if (process.platform !== 'win32' && (/^[a-zA-Z]:/.test(userPath) || userPath.includes('\\')))
    throw pathDenied(userPath, 'windows-path');
  if (isAbsolute(userPath)) {
    const abs = normalize(userPath);
    if (isInside(realRoot, abs)) return abs;
    const givenRoot = resolve(root);
    if (isInside(givenRoot, abs)) return join(realRoot, relative(givenRoot, abs));
    throw pathDenied(userPath, 'outside-root');
  }
  const abs = resolve(realRoot, userPath);
  if (!isInside(realRoot, abs)) throw pathDenied(userPath, 'parent-traversal');
  return abs;
}

async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** The real path of the nearest ancestor of `dir` that exists, plus the part of `dir` that does not exist yet. */
async function canonicalDir(dir: string): Promise<string> {
  let existing = dir;
  const missing: string[] = [];
  while (!(await exists(existing))) {
    const parent = dirname(existing);
    if (parent === existing) break;
    missing.unshift(basename(existing));
    existing = parent;
  }
  const real = await realpath(existing).catch(() => null);
  if (real === null) return '';
  return join(real, ...missing);
}

/**
 * The absolute path a model's `userPath` names inside `root`, or a PERMISSION_DENIED ToolCallError.
 * Directories on the way are canonical (symlinks resolved); the last component is kept as named,
 * so deleting or renaming a link acts on the link, while its target has been checked to be inside.
 */
export async function resolveInsideRoot(root: string, userPath: string): Promise<string> {
  const realRoot = await realRootOf(root);
  const target = lexicalTarget(root, realRoot, userPath);
  if (target === realRoot) return realRoot;
  const parent = await canonicalDir(dirname(target));
  if (parent === '') throw pathDenied(userPath, 'dangling-symlink');
  if (!isInside(realRoot, parent)) throw pathDenied(userPath, 'symlink-escape');
  const leaf = join(parent, basename(target));
  const stat = await lstat(leaf).catch(() => null);
  if (stat?.isSymbolicLink()) {
    const real = await realpath(leaf).catch(() => null);
    if (real === null) throw pathDenied(userPath, 'dangling-symlink');
    if (!isInside(realRoot, real)) throw pathDenied(userPath, 'symlink-escape');
  }
  return leaf;
}

/** The workspace-relative form of an absolute path inside the root, with "/" separators, for output. */
export async function workspaceRelative(root: string, absolute: string): Promise<string> {
  const realRoot = await realRootOf(root);
  const rel = relative(realRoot, absolute);
  return rel === '' ? '.' : rel.split(sep).join('/');
}
