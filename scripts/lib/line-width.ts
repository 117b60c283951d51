/**
 * The line width check (docs/architecture.md#tests-and-benchmarks): every source line at most 120
 * characters. Biome formats code to that width but leaves long strings, comments, regular
 * expressions and template text as they are; this check holds those to the width too.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const MAX_LINE_WIDTH = 120;

/** The files checked: TypeScript and JavaScript sources (documents and data are not). */
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|cjs|mjs)$/;

/**
 * Files held to no width, each with why. None today: recorded output a test replays is split with
 * `+` or kept in a data file (test/fixtures/, JSON), which is not a source file.
 */
export const NOT_CHECKED: ReadonlyMap<string, string> = new Map<string, string>();

export interface LongLine {
  /** The path relative to the root, as git names it. */
  file: string;
  /** 1-based. */
  line: number;
  /** In characters as a reader counts them: code points, so "—" is one, not three bytes. */
  width: number;
}

export function isChecked(file: string): boolean {
  return SOURCE.test(file) && !NOT_CHECKED.has(file);
}

export function longLinesOf(file: string, text: string): LongLine[] {
  const long: LongLine[] = [];
  text.split('\n').forEach((line, index) => {
    const width = [...line.replace(/\r$/, '')].length;
    if (width > MAX_LINE_WIDTH) long.push({ file, line: index + 1, width });
  });
  return long;
}

export function findLongLines(root: string, files: readonly string[]): LongLine[] {
  return files.filter(isChecked).flatMap((file) => longLinesOf(file, readFileSync(resolve(root, file), 'utf8')));
}

/** The files git tracks, and the new ones it would track (not ignored). */
export function sourceFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(listed.split('\0').filter((file) => file.length > 0))];
}
