// Rule guarded: list_files, glob_files and search_files show what is inside the workspace (types,
// sizes, line numbers) within their limits, and a catastrophic search regex is refused, not hung on.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filesTools } from '../../tools/files';
import { type Harness, harness } from '../structured/harness';
import { type Workspace, makeWorkspace } from './workspace-fixture';

let ws: Workspace;
let h: Harness;
beforeEach(() => {
  ws = makeWorkspace();
  h = harness(filesTools({ workspaceRoot: ws.root }));
});
afterEach(() => ws.cleanup());

type Listing = { count: number; truncated: boolean; entries: Array<{ path: string; type: string; size?: number }> };
type Matches = {
  count: number;
  truncated: boolean;
  matches: Array<{ path: string; line: number; column: number; text: string }>;
  filesSkipped: number;
};

describe('list_files', () => {
  it('refuses a file or a missing directory', async () => {
    await h.fails('list_files', { path: 'hello.txt' }, 'INVALID_ARGUMENT');
    await h.fails('list_files', { path: 'nope' }, 'NOT_FOUND');
    await h.fails('list_files', { depth: 0 }, 'INVALID_ARGUMENT');
  });
  it('lists direct children with type and size by default', async () => {
    const r = await h.ok<Listing>('list_files', {});
    const byPath = Object.fromEntries(r.entries.map((e) => [e.path, e]));
    expect(byPath['hello.txt']).toEqual({ path: 'hello.txt', type: 'file', size: 12 });
    expect(byPath.src?.type).toBe('directory');
    expect(byPath['link-in.txt']?.type).toBe('symlink');
    expect(r.entries.some((e) => e.path.includes('/'))).toBe(false);
  });
  it('descends to the requested depth and hides dot-files on request', async () => {
    ws.write('.env', 'X=1');
    const r = await h.ok<Listing>('list_files', { path: 'src', depth: 2, includeHidden: false });
    expect(r.entries.map((e) => e.path)).toEqual(['src/app.ts', 'src/nested', 'src/nested/deep.ts']);
    const all = await h.ok<Listing>('list_files', {});
    expect(all.entries.some((e) => e.path === '.env')).toBe(true);
    const hidden = await h.ok<Listing>('list_files', { includeHidden: false });
    expect(hidden.entries.some((e) => e.path === '.env')).toBe(false);
  });
  it('stops at maxEntries and says it was truncated', async () => {
    const r = await h.ok<Listing>('list_files', { maxEntries: 2 });
    expect(r).toMatchObject({ count: 2, truncated: true });
  });
});

describe('glob_files', () => {
  it('refuses a base that is a file', async () => {
    await h.fails('glob_files', { pattern: '*', path: 'hello.txt' }, 'INVALID_ARGUMENT');
  });
  it('finds files by pattern, relative to the root, sorted', async () => {
    const r = await h.ok<{ paths: string[] }>('glob_files', { pattern: '**/*.ts' });
    expect(r.paths).toEqual(['src/app.ts', 'src/nested/deep.ts']);
  });
  it('searches from a sub-directory and reports root-relative paths', async () => {
    const r = await h.ok<{ paths: string[] }>('glob_files', { pattern: '*.ts', path: 'src/nested' });
    expect(r.paths).toEqual(['src/nested/deep.ts']);
  });
  it('skips node_modules by default and honours negation and limits', async () => {
    ws.write('node_modules/pkg/index.ts', 'x');
    expect((await h.ok<{ paths: string[] }>('glob_files', { pattern: '**/*.ts' })).paths).not.toContain(
      'node_modules/pkg/index.ts',
    );
    expect((await h.ok<{ paths: string[] }>('glob_files', { pattern: ['**/*.ts', '!src/nested/**'] })).paths).toEqual([
      'src/app.ts',
    ]);
    expect(await h.ok('glob_files', { pattern: '**/*', maxResults: 1 })).toMatchObject({ count: 1, truncated: true });
  });
  it('includes directories when asked', async () => {
    const r = await h.ok<{ paths: string[] }>('glob_files', { pattern: 'src/*', includeDirectories: true });
    expect(r.paths).toContain('src/nested');
  });
});

describe('search_files', () => {
  it('refuses an invalid regex and a catastrophic one, without hanging', async () => {
    await h.fails('search_files', { query: '(unclosed', regex: true }, 'INVALID_ARGUMENT');
    ws.write('evil.txt', `${'a'.repeat(40)}!\n`);
    const e = await h.fails('search_files', { query: '(a+)+$', regex: true, include: 'evil.txt' }, 'INVALID_ARGUMENT');
    expect(e.data?.reason).toBe('regex-timeout');
    expect(e.hint).toMatch(/nested/);
  });
  it('finds literal text with path, line and column', async () => {
    const r = await h.ok<Matches>('search_files', { query: 'world' });
    expect(r.matches).toEqual([{ path: 'hello.txt', line: 2, column: 1, text: 'world' }]);
  });
  it('finds regex matches case-insensitively within included files', async () => {
    const r = await h.ok<Matches>('search_files', {
      query: 'EXPORT const \\w+',
      regex: true,
      ignoreCase: true,
      include: 'src/**/*.ts',
    });
    expect(r.matches.map((m) => `${m.path}:${m.line}`)).toEqual(['src/app.ts:1', 'src/nested/deep.ts:1']);
  });
  it('skips binary files and stops at maxResults', async () => {
    ws.write('bin.dat', Buffer.concat([Buffer.from('world'), Buffer.from([0, 1])]));
    ws.write('many.txt', 'world\n'.repeat(10));
    const r = await h.ok<Matches>('search_files', { query: 'world', maxResults: 3 });
    expect(r).toMatchObject({ count: 3, truncated: true });
    expect(r.matches.some((m) => m.path === 'bin.dat')).toBe(false);
  });
  it('skips a named pipe instead of blocking on it, and read_file refuses one', async () => {
    execFileSync('mkfifo', [join(ws.root, 'pipe.txt')]);
    expect(await h.ok('search_files', { query: 'world' })).toMatchObject({ count: 1 });
    await h.fails('read_file', { path: 'pipe.txt' }, 'INVALID_ARGUMENT');
  });
  it('clips very long matching lines around the match', async () => {
    ws.write('long.txt', `${'x'.repeat(1000)}needle${'y'.repeat(1000)}\n`);
    const r = await h.ok<Matches>('search_files', { query: 'needle' });
    expect(r.matches[0]?.column).toBe(1001);
    expect(r.matches[0]?.text).toContain('needle');
    expect(r.matches[0]?.text.length).toBeLessThan(310);
  });
});
