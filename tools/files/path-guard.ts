/**
 * The workspace path guard: every path a model names must stay inside one root folder. Refused,
 * with PERMISSION_DENIED naming the rule: NUL bytes, Windows drive/UNC/backslash paths, `..`
 * that climbs out, absolute paths elsewhere, and symlinks whose real target lies outside (checked
 * on the real path of the nearest existing ancestor and of the target itself). Paths inside are
 * accepted whether relative or absolute. Exported for other families (browser upload, app install).
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
  | 'dangling-symlink';

const RULE_TEXT: Record<PathRule, string> = {
  'nul-byte': 'paths may not contain NUL bytes',
  'windows-path':
    'Windows drive, UNC and backslash paths are not accepted; use "/" separators relative to the workspace',
  'outside-root': 'absolute paths must lie inside the workspace root',
  'parent-traversal': '".." may not climb above the workspace root',
  'symlink-escape': 'a symbolic link on this path leads outside the workspace root',
  'dangling-symlink': 'a symbolic link on this path points to nothing, so where it leads cannot be checked',
};

export function pathDenied(userPath: string, rule: PathRule): ToolCallError {
  return new ToolCallError('PERMISSION_DENIED', `Path "${printable(userPath)}" is refused: ${RULE_TEXT[rule]}.`, {
    hint: 'Only paths inside the workspace are allowed. Use a path relative to the workspace root (e.g. "src/index.ts"); do not retry this path.',
    data: { rule, path: printable(userPath) },
  });
}

function printable(p: string): string {
  return p.replace(/\0/g, '\\0').slice(0, 300);
}

export function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

async function realRootOf(root: string): Promise<string> {
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
