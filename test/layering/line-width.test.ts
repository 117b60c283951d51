/**
 * Rule: no source line is longer than 120 characters, counted as a reader counts them; the check
 * names each long line as file:line with its width, and reads only source files.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LINE_WIDTH, findLongLines, isChecked, longLinesOf } from '../../scripts/lib/line-width';

let root: string;
function tree(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'line-width-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
afterEach(() => root && rmSync(root, { recursive: true, force: true }));

describe('line width check', () => {
  it('allows 120 characters and refuses 121', () => {
    expect(MAX_LINE_WIDTH).toBe(120);
    expect(longLinesOf('a.ts', 'x'.repeat(120))).toEqual([]);
    expect(longLinesOf('a.ts', `ok\n${'x'.repeat(121)}\n`)).toEqual([{ file: 'a.ts', line: 2, width: 121 }]);
  });

  it('counts characters, not bytes: 120 dashes and an astral emoji are 120 and 1', () => {
    expect(longLinesOf('a.ts', '—'.repeat(120))).toEqual([]);
    expect(longLinesOf('a.ts', `${'—'.repeat(119)}😀`)).toEqual([]);
    expect(longLinesOf('a.ts', `${'—'.repeat(120)}😀`)).toEqual([{ file: 'a.ts', line: 1, width: 121 }]);
  });

  it('does not count the carriage return of a CRLF line', () => {
    expect(longLinesOf('a.ts', `${'x'.repeat(120)}\r\nnext`)).toEqual([]);
  });

  it('reads TypeScript and JavaScript sources, not documents or data', () => {
    expect(['a.ts', 'b.tsx', 'c.mts', 'd.cjs', 'e.mjs', 'f.js'].every(isChecked)).toBe(true);
    expect(['README.md', 'data.json', 'page.html', 'app.css'].some(isChecked)).toBe(false);
  });

  it('names every long line of every source file given, with its width', () => {
    const long = 'y'.repeat(130);
    const dir = tree({
      'tools/a.ts': `short\n${long}\nshort\n${long}`,
      'renderer/b.tsx': long,
      'docs/c.md': long,
    });
    expect(findLongLines(dir, ['tools/a.ts', 'renderer/b.tsx', 'docs/c.md'])).toEqual([
      { file: 'tools/a.ts', line: 2, width: 130 },
      { file: 'tools/a.ts', line: 4, width: 130 },
      { file: 'renderer/b.tsx', line: 1, width: 130 },
    ]);
  });
});
