/**
 * Rule (issue 12, item 3): the shell gate decides on the command as Android's shell, mksh, runs it.
 * Every line of the corpus gets its expected verdict; every line the gate calls read-only is run
 * in real mksh — with Debian's tools and again with toybox's, in a scratch folder laid out like a
 * phone — and must leave every name, size, mode, time and byte of that folder as it was; and each
 * command mksh ran must be one the gate judged. The corpus' writers are run as well and must change
 * the folder, so a read-only verdict on any of them would have been caught.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeCommandLine, quote } from '../../tools/devices';
import { parseCommandLine } from '../../tools/devices/shell-gate/command-parser';
import { MKSH, buildScratch, requireMksh, runInMksh, snapshot, toyboxBin } from './mksh-scratch';
import { CORPUS, type CorpusEntry, READ_ONLY, WRITERS } from './shell-gate-corpus';

let base: string;
let toybin: string;
let runs = 0;

beforeAll(() => {
  requireMksh();
  base = mkdtempSync(join(tmpdir(), 'toolgate-mksh-'));
  chmodSync(base, 0o755);
  toybin = toyboxBin(join(base, 'toybin'));
});
afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

/** Runs the line in a fresh scratch tree; returns the tree before and after, and the run. */
function run(line: string, tools: 'gnu' | 'toybox') {
  const root = join(base, `root-${++runs}`);
  buildScratch(root);
  const before = snapshot(root);
  const result = runInMksh(line, root, tools === 'toybox' ? { toybin } : {});
  const after = snapshot(root);
  rmSync(root, { recursive: true, force: true });
  return { before, after, result };
}

const readOnly = CORPUS.filter((e) => e.verdict === 'read');
const writers = CORPUS.filter((e) => e.writes);

describe('the corpus', () => {
  it('has more than 100 lines, every writer class and many read-only ones', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(100);
    expect(WRITERS.length).toBeGreaterThanOrEqual(40);
    expect(READ_ONLY.length).toBeGreaterThanOrEqual(50);
  });
});

describe('each corpus line gets its verdict', () => {
  it.each(CORPUS.map((e) => [e.line, e.verdict] as const))('%j is %s', (line, verdict) => {
    expect(judgeCommandLine(line).verdict).toBe(verdict);
  });
});

describe('a line judged read-only changes nothing when mksh runs it', () => {
  it.each(readOnly.map((e) => [e.line, e] as const))('%j', (_, entry: CorpusEntry) => {
    expect(judgeCommandLine(entry.line).verdict).toBe('read');
    for (const tools of ['gnu', 'toybox'] as const) {
      const { before, after, result } = run(entry.line, tools);
      expect(after, `${tools}: ${result.output}`).toBe(before);
    }
  });
});

// A sourced file's commands are not in the line; the gate asks about `.` for that reason.
const sourcing = (e: CorpusEntry) => judgeCommandLine(e.line).commands.some((c) => c === '.' || c === 'source');

describe('every command mksh runs for a line is one the gate judged (but those of a sourced file)', () => {
  it.each([...readOnly, ...writers].filter((e) => !sourcing(e)).map((e) => [e.line] as const))('%j', (line) => {
    const judged = new Set(judgeCommandLine(line).commands);
    const { result } = run(line, 'gnu');
    expect(result.traced.length).toBeGreaterThan(0);
    for (const name of result.traced) expect(judged, `mksh ran ${name}`).toContain(name);
  });
});

describe('every writer of the corpus really writes in mksh, and is not judged read-only', () => {
  it.each(writers.map((e) => [e.line, e] as const))('%j', (_, entry: CorpusEntry) => {
    expect(judgeCommandLine(entry.line).verdict).not.toBe('read');
    const toolsets = entry.writes === 'gnu' ? (['gnu'] as const) : (['gnu', 'toybox'] as const);
    for (const tools of toolsets) {
      const { before, after, result } = run(entry.line, tools);
      expect(after, `${tools} did not write: ${result.output}`).not.toBe(before);
    }
  });
});

describe('mksh’s built-in aliases', () => {
  it('are never judged read-only command names (an alias runs something else than its name)', () => {
    const aliases = spawnSync(MKSH, ['-c', 'alias'], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean)
      .map((line) => line.slice(0, line.indexOf('=')));
    expect(aliases.length).toBeGreaterThan(5);
    for (const name of aliases) expect(judgeCommandLine(`${name} x`).verdict, name).not.toBe('read');
  });
});

/** Shell syntax in pieces; `zz` is a command the gate does not know, so a line showing it is never read-only. */
const FRAGMENTS = [
  ...['echo', 'true', 'zz', ' ', ' ', ' ', ';', '|', '&&', '||', '\n', '"', "'", '`', '$(', ')', '(', '{ ', ' }'],
  ...['\\', '#', '$', '${', '}', "$'", 'x', 'a b', '=', '<<E\n', '\nE\n', '*', '?', '[', ']', ',', '{a,b}'],
  ...['2>&1', '-', '!', 'if ', 'then ', 'fi', 'case ', ' in ', 'esac', ';;', 'for ', 'do ', 'done', '[[ ', ' ]]'],
  ...['~', '>', '<', '>x', '1<>x', '&>x', '${ ', '${|', "$'\\''", '"$(', ')"', '${x:-', '|&', '&', '$((', 'time '],
  ...["<<'E'\n", '`zz`', '$(zz)', '@(', '\\\n'],
];

describe('random lines of shell syntax', () => {
  it('that the gate calls read-only run in mksh only commands the gate judged, and change nothing', () => {
    let seed = 20250612;
    const next = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    const empty = join(base, 'no-programs');
    mkdirSync(empty);
    let readOnlyLines = 0;
    for (let i = 0; i < 5000; i++) {
      const line = Array.from({ length: 2 + (next() % 14) }, () => FRAGMENTS[next() % FRAGMENTS.length]).join('');
      const judgement = judgeCommandLine(line);
      if (judgement.verdict !== 'read') continue;
      readOnlyLines++;
      const root = join(base, `random-${i}`);
      buildScratch(root);
      const before = snapshot(root);
      // No programs on PATH: only mksh's builtins can run, and the trace still names every command tried.
      const result = runInMksh(line, root, { path: empty });
      expect(snapshot(root), line).toBe(before);
      const judged = new Set(judgement.commands);
      for (const name of result.traced) expect(judged, `${JSON.stringify(line)} ran ${name}`).toContain(name);
      rmSync(root, { recursive: true, force: true });
    }
    expect(readOnlyLines).toBeGreaterThan(100);
  });
});

describe('a value quoted by shell-words.ts', () => {
  it('is one literal word for the gate and for mksh, whatever it contains', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    const chars = [...'ab \'"\\$`;|&()<>{}*?[]~#!=\n\t-', 'é', '✓'];
    for (let i = 0; i < 150; i++) {
      const value = Array.from({ length: next() % 24 }, () => chars[next() % chars.length]).join('');
      const line = `print -rn -- ${quote(value)}`;
      const parsed = parseCommandLine(line);
      expect(parsed.problems).toEqual([]);
      const [command] = parsed.script.pipelines[0] ?? [];
      const words = command?.type === 'simple' ? command.words : [];
      expect(words).toHaveLength(4);
      expect(words[3]!.parts.every((p) => p.kind === 'literal')).toBe(true);
      expect(words[3]!.parts.map((p) => (p.kind === 'literal' ? p.text : '$?')).join('')).toBe(value);
      expect(judgeCommandLine(`ls ${quote(value)}`).verdict).toBe('read');
      const r = spawnSync(MKSH, ['-c', line], { encoding: 'utf8' });
      expect(r.stdout).toBe(value);
    }
  });
});
