// Rule guarded: read_file returns text lines by range within a byte limit, says where to continue,
// and refuses binary files, directories and bad ranges with an actionable error.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderResult } from '../../tools/core/result';
import { filesTools } from '../../tools/files';
import { type Harness, harness } from '../structured/harness';
import { type Workspace, makeWorkspace } from './workspace-fixture';

let ws: Workspace;
let h: Harness;
beforeEach(() => {
  ws = makeWorkspace();
  h = harness(filesTools({ workspaceRoot: ws.root, maxReadBytes: 100 }));
});
afterEach(() => ws.cleanup());

const lines = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;

describe('read_file refuses', () => {
  it('a missing file with NOT_FOUND', async () => {
    await h.fails('read_file', { path: 'nope.txt' }, 'NOT_FOUND');
  });
  it('a directory, pointing to list_files', async () => {
    const e = await h.fails('read_file', { path: 'src' }, 'INVALID_ARGUMENT');
    expect(e.hint).toMatch(/list_files/);
  });
  it('a binary file with UNSUPPORTED', async () => {
    ws.write('img.bin', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
    const e = await h.fails('read_file', { path: 'img.bin' }, 'UNSUPPORTED');
    expect(e.hint).toMatch(/file_hash/);
  });
  it('invalid UTF-8 as binary', async () => {
    ws.write('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x81]));
    await h.fails('read_file', { path: 'latin1.txt' }, 'UNSUPPORTED');
  });
  it('an endLine before the startLine', async () => {
    await h.fails('read_file', { path: 'hello.txt', startLine: 3, endLine: 2 }, 'INVALID_ARGUMENT');
  });
  it('a startLine past the end of the file', async () => {
    const e = await h.fails('read_file', { path: 'hello.txt', startLine: 9 }, 'INVALID_ARGUMENT');
    expect(e.message).toMatch(/2 lines/);
  });
  it('a missing or mistyped path argument', async () => {
    await h.fails('read_file', {}, 'INVALID_ARGUMENT');
    await h.fails('read_file', { path: 3 }, 'INVALID_ARGUMENT');
    await h.fails('read_file', { path: 'hello.txt', startLine: 0 }, 'INVALID_ARGUMENT');
  });
});

describe('read_file reads', () => {
  it('a whole small file as its text', async () => {
    const r = await h.call('read_file', { path: 'hello.txt' });
    expect(renderResult(r)).toBe('hello\nworld');
    expect(r.ok && r.structured).toMatchObject({ path: 'hello.txt', totalLines: 2, truncated: false, more: false });
  });
  it('a range of lines, with numbers when asked', async () => {
    ws.write('ten.txt', lines(10));
    const r = await h.call('read_file', { path: 'ten.txt', startLine: 3, endLine: 4, lineNumbers: true });
    expect(renderResult(r)).toBe('3\tline 3\n4\tline 4');
    expect(r.ok && r.structured).toMatchObject({ startLine: 3, endLine: 4, totalLines: 10, more: true });
  });
  it('up to the byte limit, then says which startLine continues', async () => {
    ws.write('many.txt', lines(40));
    const r = await h.call('read_file', { path: 'many.txt' });
    const s = r.ok ? (r.structured as { endLine: number; truncated: boolean }) : undefined;
    expect(s?.truncated).toBe(true);
    expect(renderResult(r)).toContain(`continue with startLine=${(s?.endLine ?? 0) + 1}`);
    const next = await h.ok<{ startLine: number }>('read_file', { path: 'many.txt', startLine: (s?.endLine ?? 0) + 1 });
    expect(next.startLine).toBe((s?.endLine ?? 0) + 1);
  });
  it('a line longer than the limit cut to the limit, and says so', async () => {
    ws.write('minified.js', 'x'.repeat(5000));
    const r = await h.call('read_file', { path: 'minified.js' });
    expect(r.ok && r.content[0]?.type === 'text' && r.content[0].text.length).toBe(100);
    expect(renderResult(r)).toMatch(/longer than 100 characters and were cut/);
  });
  it('CRLF files without the carriage returns', async () => {
    ws.write('dos.txt', 'a\r\nb\r\n');
    expect(renderResult(await h.call('read_file', { path: 'dos.txt' }))).toBe('a\nb');
  });
  it('an empty file as empty text', async () => {
    ws.write('empty.txt', '');
    expect(await h.ok('read_file', { path: 'empty.txt' })).toMatchObject({ totalLines: 0, truncated: false });
  });
  it('through a symlink that stays inside the workspace', async () => {
    expect(renderResult(await h.call('read_file', { path: 'link-in.txt' }))).toBe('hello\nworld');
  });
  it('an absolute path inside the workspace', async () => {
    expect(renderResult(await h.call('read_file', { path: `${ws.root}/src/app.ts` }))).toBe(
      'export const answer = 42;',
    );
  });
});
