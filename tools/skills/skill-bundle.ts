/**
 * A skill's files in memory, gathered from a folder or an archive before anything is written.
 * Every entry passes through `add`, which holds the same rules for every source: a relative path
 * that stays inside (no absolute path, no drive letter, no `..`, no backslash, no NUL), bounded
 * length and depth, no name twice, and the entry, per-file and total size limits. A source only
 * has to say what each entry is; links and devices are refused by the source before `add`.
 */
import { SKILL_LIMITS } from './limits';

export interface SkillFile {
  /** Relative to the archive or folder root, `/`-separated. */
  path: string;
  data: Buffer;
}

/** A skill that cannot be installed as given; `entry` names the archive entry or file at fault. */
export class SkillBundleError extends Error {
  constructor(
    message: string,
    readonly entry?: string,
  ) {
    super(message);
    this.name = 'SkillBundleError';
  }
}

/** Archive clutter that is not part of any skill (macOS resource forks, Finder files). */
function isClutter(path: string): boolean {
  return path === '__MACOSX' || path.startsWith('__MACOSX/') || path.split('/').pop() === '.DS_Store';
}

/** Why a path is refused, or undefined. Folder entries may end in `/`; a leading `./` is removed first. */
export function entryPathProblem(raw: string): string | undefined {
  if (raw.includes('\0')) return 'has a NUL character in its name';
  if (/\p{Cc}/u.test(raw)) return 'has a control character in its name';
  if (raw.startsWith('/') || raw.startsWith('\\')) return 'is an absolute path';
  if (/^[A-Za-z]:/.test(raw)) return 'starts with a drive letter (an absolute Windows path)';
  if (raw.includes('\\')) return 'uses backslashes; archive paths must use "/"';
  const parts = raw.replace(/\/$/, '').split('/');
  if (parts.includes('..')) return 'climbs out of the skill with ".." (zip-slip)';
  if (parts.some((p) => p === '')) return 'has an empty path component ("//")';
  if (parts.includes('.')) return 'has a "." path component';
  if (raw.length > SKILL_LIMITS.pathChars) return `is longer than ${SKILL_LIMITS.pathChars} characters`;
  if (parts.length > SKILL_LIMITS.pathDepth) return `is nested deeper than ${SKILL_LIMITS.pathDepth} folders`;
  return undefined;
}

export class SkillBundleBuilder {
  private readonly files = new Map<string, Buffer>();
  private entries = 0;
  private total = 0;

  /** Counts a folder entry (it holds nothing, but an archive of a million empty folders is refused too). */
  addDirectory(raw: string): void {
    const path = this.checkedPath(raw);
    if (path !== undefined) this.count(path);
  }

  /** The most bytes the next file may have: the per-file limit or what is left of the total. */
  room(): number {
    return Math.min(SKILL_LIMITS.fileBytes, SKILL_LIMITS.totalBytes - this.total);
  }

  /** Refuses a file before it is read when its declared size already breaks a limit. */
  checkDeclaredSize(raw: string, size: number): void {
    if (size > SKILL_LIMITS.fileBytes)
      throw new SkillBundleError(`${raw} is ${size} bytes; one file may have at most ${SKILL_LIMITS.fileBytes}`, raw);
    if (this.total + size > SKILL_LIMITS.totalBytes)
      throw new SkillBundleError(
        `the skill's files add up to more than ${SKILL_LIMITS.totalBytes} bytes (at ${raw})`,
        raw,
      );
  }

  addFile(raw: string, data: Buffer): void {
    const path = this.checkedPath(raw);
    if (path === undefined) return;
    this.checkDeclaredSize(raw, data.length);
    if (this.files.has(path)) throw new SkillBundleError(`${raw} appears twice`, raw);
    this.count(path);
    this.total += data.length;
    this.files.set(path, data);
  }

  build(): SkillFile[] {
    return [...this.files].map(([path, data]) => ({ path, data }));
  }

  private checkedPath(raw: string): string | undefined {
    const relative = raw.replace(/^(\.\/)+/, '');
    if (relative === '' || relative === '.' || relative === './') return undefined;
    const problem = entryPathProblem(relative);
    if (problem) throw new SkillBundleError(`entry ${JSON.stringify(raw.slice(0, 300))} ${problem}`, raw);
    const path = relative.replace(/\/$/, '');
    return isClutter(path) ? undefined : path;
  }

  private count(raw: string): void {
    if (++this.entries > SKILL_LIMITS.entries)
      throw new SkillBundleError(`more than ${SKILL_LIMITS.entries} files and folders (at ${raw})`, raw);
  }
}
