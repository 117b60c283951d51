// Rule guarded: the files tools act on what they checked. A regular file with more than one hard
// link is neither read nor written (its other names may lie outside); objects the host names as
// secrets are refused by identity, whatever path leads to them; and a folder swapped for a link
// to outside while writes and deletions run never lets one land outside.
import { type ChildProcess, spawn } from 'node:child_process';
import { linkSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderResult } from '../../tools/core/result';
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

describe('a file with several hard links', () => {
  beforeEach(() => linkSync(join(ws.outside, 'secret.txt'), join(ws.root, 'linked.txt')));

  it('is refused by read_file, write_file, edit_file and copy_move_file, naming its link count', async () => {
    for (const [toolId, args] of [
      ['read_file', { path: 'linked.txt' }],
      ['write_file', { path: 'linked.txt', content: 'pwned' }],
      ['edit_file', { path: 'linked.txt', oldText: SENTINEL, newText: 'pwned' }],
      ['copy_move_file', { source: 'linked.txt', destination: 'copy.txt', mode: 'copy' }],
    ] as const) {
      const e = await h.fails(toolId, args, 'PERMISSION_DENIED');
      expect(e.message, toolId).toBe(
        'Path "linked.txt" is refused: it has 2 hard links; its other names may lie outside the workspace.',
      );
      expect(e.data).toMatchObject({ rule: 'hard-link', links: 2 });
    }
    expect(readFileSync(join(ws.outside, 'secret.txt'), 'utf8')).toContain(SENTINEL);
    expect(ws.exists('copy.txt')).toBe(false);
  });

  it('is skipped by search_files, and stops a whole-folder copy before anything is copied', async () => {
    const found = await h.call('search_files', { query: SENTINEL });
    expect(found.ok && (found.structured as { count: number }).count).toBe(0);
    ws.write('tree/plain.txt', 'plain');
    linkSync(join(ws.outside, 'secret.txt'), join(ws.root, 'tree', 'inner-link.txt'));
    const e = await h.fails(
      'copy_move_file',
      { source: 'tree', destination: 'tree2', mode: 'copy' },
      'PERMISSION_DENIED',
    );
    expect(e.message).toContain('"tree/inner-link.txt" is refused: it has 3 hard links');
    expect(ws.exists('tree2')).toBe(false);
  });

  it('may still be moved or deleted, which touches the name and not the file', async () => {
    await h.ok('copy_move_file', { source: 'linked.txt', destination: 'renamed.txt', mode: 'move' });
    await h.ok('delete_file', { path: 'renamed.txt' });
    expect(readFileSync(join(ws.outside, 'secret.txt'), 'utf8')).toContain(SENTINEL);
  });
});

describe('the secret files the host names', () => {
  let vault: string;
  beforeEach(() => {
    ws.write('vault/key.txt', `${SENTINEL} key\n`);
    vault = join(ws.root, 'vault', 'key.txt');
    const key = statSync(vault);
    h = harness(
      filesTools({
        workspaceRoot: ws.root,
        secretFiles: ({ id }) => id !== undefined && id.dev === key.dev && id.ino === key.ino,
      }),
    );
    symlinkSync(vault, join(ws.root, 'key-link.txt'));
  });

  it('are refused by identity through every path and every tool that reads, changes, copies, moves or deletes', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [];
    for (const path of ['vault/key.txt', './vault/../vault/key.txt', vault, 'key-link.txt']) {
      calls.push(['read_file', { path }], ['write_file', { path, content: 'pwned' }]);
      calls.push(['edit_file', { path, oldText: SENTINEL, newText: 'pwned' }]);
      calls.push(['copy_move_file', { source: path, destination: 'stolen.txt', mode: 'copy' }]);
    }
    calls.push(['copy_move_file', { source: 'vault/key.txt', destination: 'moved.txt', mode: 'move' }]);
    calls.push([
      'copy_move_file',
      { source: 'hello.txt', destination: 'vault/key.txt', mode: 'copy', overwrite: true },
    ]);
    calls.push(['delete_file', { path: 'vault/key.txt' }]);
    for (const [toolId, args] of calls) {
      const e = await h.fails(toolId, args, 'PERMISSION_DENIED');
      expect(e.message, `${toolId} ${JSON.stringify(args)}`).toContain("is one of Toolgate's own secret files");
    }
    const found = await h.call('search_files', { query: SENTINEL });
    expect(renderResult(found)).not.toContain(SENTINEL);
    expect(readFileSync(vault, 'utf8')).toBe(`${SENTINEL} key\n`);
    expect(readdirSync(ws.root)).not.toContain('stolen.txt');
  });
});

/** Swaps root/sub between a real folder and a link to outside/, pausing in each state so both last. */
const FOLDER_SWAPPER = `
const fs = require('node:fs');
const [sub, real, outside] = process.argv.slice(1);
const linger = () => { for (let i = 0; i < 50; i++) fs.lstatSync(outside); };
for (;;) {
  linger();
  fs.renameSync(sub, real);
  fs.symlinkSync(outside, sub);
  linger();
  fs.unlinkSync(sub);
  fs.renameSync(real, sub);
}`;

describe('a folder swapped for a link to outside while the tools run', () => {
  let swapper: ChildProcess | undefined;
  afterEach(() => {
    swapper?.kill('SIGKILL');
  });

  it('never lets write_file, edit_file or delete_file act outside', async () => {
    mkdirSync(join(ws.root, 'sub'));
    writeFileSync(join(ws.root, 'sub', 'victim.txt'), 'inside\n');
    writeFileSync(join(ws.outside, 'victim.txt'), `${SENTINEL} victim\n`);
    const before = ws.snapshotOutside();
    swapper = spawn(
      process.execPath,
      ['-e', FOLDER_SWAPPER, join(ws.root, 'sub'), join(ws.root, '.sub-real'), ws.outside],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 150; i++) {
      await h.call('write_file', { path: `sub/new-${i}.txt`, content: 'written' });
      await h.call('edit_file', { path: 'sub/victim.txt', oldText: 'inside', newText: `inside${i}` });
      await h.call('delete_file', { path: 'sub/victim.txt' });
      await h.call('write_file', { path: 'sub/victim.txt', content: 'inside\n' });
    }
    expect(swapper.exitCode).toBeNull();
    swapper.kill('SIGKILL');
    swapper = undefined;
    expect(ws.snapshotOutside()).toEqual(before);
  });
});
