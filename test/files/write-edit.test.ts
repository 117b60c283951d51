// Rule guarded: write_file replaces files atomically within a size limit and never silently
// creates directories or overwrites when told not to; edit_file changes exactly one exact match
// unless replaceAll is set, and explains absent or repeated text with counts and a hint.
import { chmodSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filesTools } from '../../tools/files';
import { type Harness, harness } from '../structured/harness';
import { type Workspace, makeWorkspace } from './workspace-fixture';

let ws: Workspace;
let h: Harness;
beforeEach(() => {
  ws = makeWorkspace();
  h = harness(filesTools({ workspaceRoot: ws.root, maxWriteBytes: 1000 }));
});
afterEach(() => ws.cleanup());

const noTempFiles = (dir = ws.root) => expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);

describe('write_file refuses', () => {
  it('content above maxWriteBytes, naming the limit', async () => {
    const e = await h.fails('write_file', { path: 'big.txt', content: 'x'.repeat(1001) }, 'INVALID_ARGUMENT');
    expect(e.message).toMatch(/1000/);
    expect(ws.exists('big.txt')).toBe(false);
  });
  it('a missing directory unless createDirs is set', async () => {
    const e = await h.fails('write_file', { path: 'a/b/c.txt', content: 'x' }, 'NOT_FOUND');
    expect(e.hint).toMatch(/createDirs: true/);
  });
  it('an existing file when overwrite is false', async () => {
    const e = await h.fails('write_file', { path: 'hello.txt', content: 'x', overwrite: false }, 'INVALID_ARGUMENT');
    expect(e.hint).toMatch(/overwrite: true/);
    expect(ws.read('hello.txt')).toBe('hello\nworld\n');
  });
  it('a directory as the target', async () => {
    await h.fails('write_file', { path: 'src', content: 'x' }, 'INVALID_ARGUMENT');
  });
  it('a file used as a directory', async () => {
    await h.fails('write_file', { path: 'hello.txt/inner.txt', content: 'x', createDirs: true }, 'INVALID_ARGUMENT');
  });
  it('invalid base64 and missing content', async () => {
    await h.fails('write_file', { path: 'b.bin', content: '***', encoding: 'base64' }, 'INVALID_ARGUMENT');
    await h.fails('write_file', { path: 'b.bin' }, 'INVALID_ARGUMENT');
  });
});

describe('write_file writes', () => {
  it('a new file and reports it as created', async () => {
    expect(await h.ok('write_file', { path: 'new.txt', content: 'héllo' })).toMatchObject({
      path: 'new.txt',
      bytes: 6,
      created: true,
    });
    expect(ws.read('new.txt')).toBe('héllo');
    noTempFiles();
  });
  it('over an existing file, keeping its mode', async () => {
    chmodSync(join(ws.root, 'hello.txt'), 0o640);
    expect(await h.ok('write_file', { path: 'hello.txt', content: 'new' })).toMatchObject({ created: false });
    expect(ws.read('hello.txt')).toBe('new');
    expect(statSync(join(ws.root, 'hello.txt')).mode & 0o777).toBe(0o640);
    noTempFiles();
  });
  it('missing directories when createDirs is set', async () => {
    await h.ok('write_file', { path: 'a/b/c.txt', content: 'deep', createDirs: true });
    expect(ws.read('a/b/c.txt')).toBe('deep');
  });
  it('binary data given as base64', async () => {
    await h.ok('write_file', {
      path: 'b.bin',
      content: Buffer.from([0, 1, 2, 255]).toString('base64'),
      encoding: 'base64',
    });
    expect(statSync(join(ws.root, 'b.bin')).size).toBe(4);
  });
  it('through an inside symlink to its target, leaving the link a link', async () => {
    await h.ok('write_file', { path: 'link-in.txt', content: 'via link' });
    expect(ws.read('hello.txt')).toBe('via link');
  });
});

describe('edit_file refuses', () => {
  it('text that does not occur, pointing at the most similar line', async () => {
    ws.write('code.ts', 'function add(a, b) {\n  return a + b;\n}\n');
    const e = await h.fails(
      'edit_file',
      { path: 'code.ts', oldText: 'return a+b;', newText: 'return b + a;' },
      'INVALID_ARGUMENT',
    );
    expect(e.message).toMatch(/does not occur/);
    expect(e.message).toContain('most similar line is 2: "return a + b;"');
    expect(e.hint).toMatch(/read_file/);
    expect(e.data?.occurrences).toBe(0);
  });
  it('text that occurs several times, with the count, the lines and a hint to add context', async () => {
    ws.write('dup.txt', 'x = 1\ny = 2\nx = 1\n');
    const e = await h.fails('edit_file', { path: 'dup.txt', oldText: 'x = 1', newText: 'x = 3' }, 'INVALID_ARGUMENT');
    expect(e.message).toMatch(/occurs 2 times/);
    expect(e.data).toMatchObject({ occurrences: 2, lines: [1, 3] });
    expect(e.hint).toMatch(/more surrounding lines|replaceAll/);
    expect(ws.read('dup.txt')).toBe('x = 1\ny = 2\nx = 1\n');
  });
  it('identical old and new text, empty oldText, a missing file, a binary file', async () => {
    await h.fails('edit_file', { path: 'hello.txt', oldText: 'hello', newText: 'hello' }, 'INVALID_ARGUMENT');
    await h.fails('edit_file', { path: 'hello.txt', oldText: '', newText: 'x' }, 'INVALID_ARGUMENT');
    await h.fails('edit_file', { path: 'nope.txt', oldText: 'a', newText: 'b' }, 'NOT_FOUND');
    ws.write('bin.dat', Buffer.from([1, 0, 2]));
    await h.fails('edit_file', { path: 'bin.dat', oldText: 'a', newText: 'b' }, 'UNSUPPORTED');
  });
  it('an edit that would exceed maxWriteBytes', async () => {
    await h.fails('edit_file', { path: 'hello.txt', oldText: 'hello', newText: 'y'.repeat(2000) }, 'INVALID_ARGUMENT');
  });
});

describe('edit_file edits', () => {
  it('the single occurrence and returns a diff', async () => {
    const r = await h.ok<{ replacements: number; firstLine: number; diff: string }>('edit_file', {
      path: 'hello.txt',
      oldText: 'world',
      newText: 'there',
    });
    expect(r).toMatchObject({ replacements: 1, firstLine: 2 });
    expect(r.diff).toContain('-world');
    expect(r.diff).toContain('+there');
    expect(ws.read('hello.txt')).toBe('hello\nthere\n');
    noTempFiles();
  });
  it('every occurrence with replaceAll', async () => {
    ws.write('dup.txt', 'x = 1\ny = 2\nx = 1\n');
    expect(
      await h.ok('edit_file', { path: 'dup.txt', oldText: 'x = 1', newText: 'x = 3', replaceAll: true }),
    ).toMatchObject({ replacements: 2 });
    expect(ws.read('dup.txt')).toBe('x = 3\ny = 2\nx = 3\n');
  });
  it('a CRLF file when the model wrote \\n line ends, keeping CRLF', async () => {
    ws.write('dos.txt', 'one\r\ntwo\r\nthree\r\n');
    await h.ok('edit_file', { path: 'dos.txt', oldText: 'one\ntwo', newText: 'uno\ndos' });
    expect(ws.read('dos.txt')).toBe('uno\r\ndos\r\nthree\r\n');
  });
  it('deletes text when newText is empty', async () => {
    await h.ok('edit_file', { path: 'hello.txt', oldText: 'hello\n', newText: '' });
    expect(ws.read('hello.txt')).toBe('world\n');
  });
});
