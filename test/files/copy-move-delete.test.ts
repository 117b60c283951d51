// Rule guarded: copy_move_file never overwrites unless asked and never copies through links;
// delete_file removes directories only with recursive:true, removes links not their targets, and
// is declared destructive HIGH so the approval gate asks a person first.
import { lstatSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filesTools } from '../../tools/files';
import { type Harness, harness } from '../structured/harness';
import { SENTINEL, type Workspace, makeWorkspace } from './workspace-fixture';

let ws: Workspace;
let h: Harness;
beforeEach(() => {
  ws = makeWorkspace();
  h = harness(filesTools({ workspaceRoot: ws.root }));
});
afterEach(() => ws.cleanup());

describe('copy_move_file refuses', () => {
  it('an existing destination unless overwrite is set', async () => {
    ws.write('other.txt', 'other');
    const e = await h.fails(
      'copy_move_file',
      { source: 'hello.txt', destination: 'other.txt', mode: 'copy' },
      'INVALID_ARGUMENT',
    );
    expect(e.hint).toMatch(/overwrite: true/);
    expect(ws.read('other.txt')).toBe('other');
  });
  it('replacing a directory, even with overwrite', async () => {
    await h.fails(
      'copy_move_file',
      { source: 'hello.txt', destination: 'src', mode: 'move', overwrite: true },
      'INVALID_ARGUMENT',
    );
    expect(ws.exists('hello.txt')).toBe(true);
  });
  it('a directory into itself, the same path, a missing source, the root', async () => {
    await h.fails(
      'copy_move_file',
      { source: 'src', destination: 'src/nested/copy', mode: 'copy' },
      'INVALID_ARGUMENT',
    );
    await h.fails(
      'copy_move_file',
      { source: 'hello.txt', destination: './hello.txt', mode: 'copy' },
      'INVALID_ARGUMENT',
    );
    await h.fails('copy_move_file', { source: 'nope.txt', destination: 'x.txt', mode: 'copy' }, 'NOT_FOUND');
    await h.fails('copy_move_file', { source: '.', destination: 'x', mode: 'move' }, 'PERMISSION_DENIED');
    await h.fails('copy_move_file', { source: 'hello.txt', destination: 'x', mode: 'rename' }, 'INVALID_ARGUMENT');
  });
  it('a missing destination directory unless createDirs is set', async () => {
    await h.fails('copy_move_file', { source: 'hello.txt', destination: 'a/b.txt', mode: 'copy' }, 'NOT_FOUND');
    await h.ok('copy_move_file', { source: 'hello.txt', destination: 'a/b.txt', mode: 'copy', createDirs: true });
    expect(ws.read('a/b.txt')).toBe('hello\nworld\n');
  });
});

describe('copy_move_file', () => {
  it('copies a file and keeps the source', async () => {
    expect(await h.ok('copy_move_file', { source: 'hello.txt', destination: 'copy.txt', mode: 'copy' })).toMatchObject({
      type: 'file',
      replaced: false,
    });
    expect(ws.read('copy.txt')).toBe('hello\nworld\n');
    expect(ws.exists('hello.txt')).toBe(true);
  });
  it('moves a file, replacing an existing one when asked', async () => {
    ws.write('other.txt', 'other');
    expect(
      await h.ok('copy_move_file', { source: 'hello.txt', destination: 'other.txt', mode: 'move', overwrite: true }),
    ).toMatchObject({ replaced: true });
    expect(ws.read('other.txt')).toBe('hello\nworld\n');
    expect(ws.exists('hello.txt')).toBe(false);
  });
  it('copies a directory tree but skips the links inside it', async () => {
    ws.write('tree/a.txt', 'a');
    ws.write('tree/sub/b.txt', 'b');
    const link = join(ws.root, 'tree', 'escape');
    symlinkSync(join(ws.outside, 'secret.txt'), link);
    const r = await h.ok('copy_move_file', { source: 'tree', destination: 'tree2', mode: 'copy' });
    expect(r).toMatchObject({ type: 'directory', skippedLinks: 1 });
    expect(ws.read('tree2/sub/b.txt')).toBe('b');
    expect(ws.exists('tree2/escape')).toBe(false);
  });
  it('moves a directory', async () => {
    await h.ok('copy_move_file', { source: 'src', destination: 'lib', mode: 'move' });
    expect(ws.read('lib/nested/deep.ts')).toBe('export const deep = true;\n');
    expect(ws.exists('src')).toBe(false);
  });
  it('copies the content of an inside symlink, not the link', async () => {
    await h.ok('copy_move_file', { source: 'link-in.txt', destination: 'plain.txt', mode: 'copy' });
    expect(lstatSync(join(ws.root, 'plain.txt')).isSymbolicLink()).toBe(false);
    expect(ws.read('plain.txt')).toBe('hello\nworld\n');
  });
});

describe('delete_file refuses', () => {
  it('a directory without recursive:true', async () => {
    const e = await h.fails('delete_file', { path: 'src' }, 'INVALID_ARGUMENT');
    expect(e.hint).toMatch(/recursive: true/);
    expect(ws.exists('src/app.ts')).toBe(true);
  });
  it('the workspace root and a missing path', async () => {
    await h.fails('delete_file', { path: '.', recursive: true }, 'PERMISSION_DENIED');
    await h.fails('delete_file', { path: ws.root, recursive: true }, 'PERMISSION_DENIED');
    await h.fails('delete_file', { path: 'nope.txt' }, 'NOT_FOUND');
  });
});

describe('delete_file', () => {
  it('deletes a file', async () => {
    expect(await h.ok('delete_file', { path: 'hello.txt' })).toMatchObject({ type: 'file', deleted: true });
    expect(ws.exists('hello.txt')).toBe(false);
  });
  it('deletes a directory with recursive:true, unlinking links inside without touching their targets', async () => {
    symlinkSync(ws.outside, join(ws.root, 'src', 'escape-dir'));
    await h.ok('delete_file', { path: 'src', recursive: true });
    expect(ws.exists('src')).toBe(false);
    expect(readFileSync(join(ws.outside, 'secret.txt'), 'utf8')).toContain(SENTINEL);
  });
  it('deletes an inside symlink, not its target', async () => {
    expect(readlinkSync(join(ws.root, 'link-in.txt'))).toBe(join(ws.root, 'hello.txt'));
    expect(await h.ok('delete_file', { path: 'link-in.txt' })).toMatchObject({ type: 'symlink' });
    expect(ws.read('hello.txt')).toBe('hello\nworld\n');
  });
});

describe('annotations of the files family', () => {
  it('mark reads read-only LOW, writes mutating, and delete_file destructive HIGH', () => {
    const byId = Object.fromEntries(filesTools({ workspaceRoot: ws.root }).map((t) => [t.id, t]));
    for (const id of ['read_file', 'list_files', 'glob_files', 'search_files']) {
      expect(byId[id]?.metadata).toMatchObject({
        category: 'files',
        risk: 'LOW',
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      });
      expect(byId[id]?.runPolicy).toBe('quickRead');
    }
    for (const id of ['write_file', 'edit_file', 'copy_move_file']) {
      expect(byId[id]?.metadata).toMatchObject({
        risk: 'MEDIUM',
        annotations: { readOnlyHint: false, destructiveHint: true },
      });
      expect(byId[id]?.runPolicy).toBe('mutating');
    }
    expect(byId.edit_file?.metadata.annotations.idempotentHint).toBe(false);
    expect(byId.delete_file?.metadata).toMatchObject({
      risk: 'HIGH',
      annotations: { readOnlyHint: false, destructiveHint: true, sensitiveAction: true },
    });
    expect(Object.keys(byId).sort()).toEqual([
      'copy_move_file',
      'delete_file',
      'edit_file',
      'glob_files',
      'list_files',
      'read_file',
      'search_files',
      'write_file',
    ]);
  });
});
