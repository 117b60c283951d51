// Rule guarded: no file outside the workspace root is read, written, listed, moved or deleted by
// any tool that takes a path, whatever form the path takes. Sentinel files are planted outside;
// after every attack they are unchanged, and their contents never appear in a result.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderResult } from '../../tools/core/result';
import { filesTools } from '../../tools/files';
import { structuredTools } from '../../tools/structured';
import { type Harness, harness } from '../structured/harness';
import { SENTINEL, type Workspace, makeWorkspace } from './workspace-fixture';

let ws: Workspace;
let h: Harness;
let before: Record<string, string>;

beforeAll(() => {
  ws = makeWorkspace();
  h = harness([...filesTools({ workspaceRoot: ws.root }), ...structuredTools({ workspaceRoot: ws.root })]);
  before = ws.snapshotOutside();
});
afterAll(() => ws.cleanup());

/** Paths that must be refused with PERMISSION_DENIED. */
function attacks(): string[] {
  return [
    '../outside/secret.txt',
    '../../etc/passwd',
    '..',
    'src/../../outside/secret.txt',
    'foo/../../x',
    'src/nested/../../../outside/secret.txt',
    join(ws.outside, 'secret.txt'),
    join(ws.outside, 'secret-dir'),
    join(ws.base, 'root-evil', 'x.txt'),
    '../root-evil/x.txt',
    '/etc/passwd',
    'link-out.txt',
    'relative-link-out.txt',
    'link-out-dir',
    'link-out-dir/inner.txt',
    'link-out-dir/new.txt',
    'dangling',
    'hello.txt\0../../outside/secret.txt',
    'C:\\Windows\\system.ini',
    '..\\outside\\secret.txt',
    '\\\\server\\share\\secret.txt',
  ];
}

/** Paths that look like traversal but are literal names inside the root: never an escape. */
const ENCODED = [
  '%2e%2e/outside/secret.txt',
  '..%2f..%2foutside%2fsecret.txt',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '\u2025/outside/secret.txt',
  '\uFF0E\uFF0E/outside/secret.txt',
];

type Call = [toolId: string, args: Record<string, unknown>];

function callsFor(p: string): Call[] {
  return [
    ['read_file', { path: p }],
    ['write_file', { path: p, content: 'pwned', createDirs: true }],
    ['edit_file', { path: p, oldText: SENTINEL, newText: 'pwned' }],
    ['list_files', { path: p, depth: 3 }],
    ['glob_files', { path: p, pattern: '**/*' }],
    ['search_files', { path: p, query: SENTINEL }],
    ['copy_move_file', { source: p, destination: 'stolen.txt', mode: 'copy' }],
    ['copy_move_file', { source: p, destination: 'moved-in', mode: 'move' }],
    ['copy_move_file', { source: 'hello.txt', destination: p, mode: 'copy', overwrite: true, createDirs: true }],
    ['copy_move_file', { source: 'src', destination: p, mode: 'move', overwrite: true, createDirs: true }],
    ['delete_file', { path: p, recursive: true }],
    ['file_hash', { path: p }],
    ['csv_query', { file: p }],
    ['xml_extract', { file: p, xpath: '//x' }],
  ];
}

describe('every path-taking tool refuses every traversal form', () => {
  it('with PERMISSION_DENIED, leaving the sentinels untouched and unseen', async () => {
    for (const p of attacks()) {
      for (const [toolId, args] of callsFor(p)) {
        const result = await h.call(toolId, args);
        const label = `${toolId} ${JSON.stringify(args)}`;
        expect(result.ok, label).toBe(false);
        if (!result.ok) expect(result.error.code, `${label}: ${result.error.message}`).toBe('PERMISSION_DENIED');
        expect(renderResult(result), label).not.toContain(SENTINEL);
      }
    }
    expect(ws.snapshotOutside()).toEqual(before);
    expect(ws.exists('src/app.ts')).toBe(true);
  });

  it('including glob and search patterns that climb out', async () => {
    for (const pattern of [
      '../outside/*',
      '../**/*.txt',
      '/etc/*',
      `${ws.outside}/*`,
      'src/../../outside/**',
      '!../x',
    ]) {
      const glob = await h.call('glob_files', { pattern });
      expect(glob.ok ? 'ok' : glob.error.code, pattern).toBe('PERMISSION_DENIED');
      const search = await h.call('search_files', { query: SENTINEL, include: pattern });
      expect(search.ok ? 'ok' : search.error.code, pattern).toBe('PERMISSION_DENIED');
    }
  });
});

describe('encoded-looking names', () => {
  it('stay literal names inside the root and never reach the sentinels', async () => {
    for (const p of ENCODED) {
      for (const [toolId, args] of callsFor(p)) {
        const result = await h.call(toolId, args);
        expect(renderResult(result), `${toolId} ${p}`).not.toContain(SENTINEL);
      }
    }
    expect(ws.snapshotOutside()).toEqual(before);
  });
});

describe('walking the workspace', () => {
  it('lists, globs and searches symlinks to outside without following them', async () => {
    const listed = await h.ok<{ entries: Array<{ path: string; type: string }> }>('list_files', { depth: 5 });
    expect(listed.entries.find((e) => e.path === 'link-out-dir')?.type).toBe('symlink');
    expect(listed.entries.some((e) => e.path.startsWith('link-out-dir/'))).toBe(false);
    const globbed = await h.ok<{ paths: string[] }>('glob_files', { pattern: '**/*.txt' });
    expect(globbed.paths.some((p) => p.startsWith('link-out-dir/'))).toBe(false);
    const found = await h.call('search_files', { query: SENTINEL });
    expect(found.ok).toBe(true);
    expect(renderResult(found)).not.toContain(SENTINEL);
    expect(found.ok && (found.structured as { count: number }).count).toBe(0);
  });
});
