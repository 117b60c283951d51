// Rule guarded: file_hash digests text or a workspace file with the standard algorithms, and a path
// outside the workspace is refused by the files family's guard (nothing outside is read).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { structuredTools } from '../../tools/structured';
import { harness } from './harness';

const base = mkdtempSync(join(tmpdir(), 'toolgate-hash-'));
const root = join(base, 'root');
mkdirSync(join(root, 'dir'), { recursive: true });
writeFileSync(join(root, 'abc.txt'), 'abc');
writeFileSync(join(base, 'outside.txt'), 'secret');
symlinkSync(join(base, 'outside.txt'), join(root, 'escape.txt'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const h = harness(structuredTools({ workspaceRoot: root }));

describe('file_hash refuses', () => {
  it('paths that leave the workspace, through .., absolute paths or symlinks', async () => {
    for (const path of ['../outside.txt', join(base, 'outside.txt'), 'escape.txt'])
      await h.fails('file_hash', { path }, 'PERMISSION_DENIED');
  });
  it('a missing file, a directory, both or neither input, an unknown algorithm', async () => {
    await h.fails('file_hash', { path: 'nope' }, 'NOT_FOUND');
    await h.fails('file_hash', { path: 'dir' }, 'INVALID_ARGUMENT');
    await h.fails('file_hash', { path: 'abc.txt', text: 'abc' }, 'INVALID_ARGUMENT');
    await h.fails('file_hash', {}, 'INVALID_ARGUMENT');
    await h.fails('file_hash', { text: 'abc', algorithm: 'crc32' }, 'INVALID_ARGUMENT');
  });
});

describe('file_hash', () => {
  it('digests text with the standard test vectors', async () => {
    expect(await h.ok('file_hash', { text: 'abc', algorithm: ['md5', 'sha1', 'sha256'] })).toMatchObject({
      bytes: 3,
      digests: {
        md5: '900150983cd24fb0d6963f7d28e17f72',
        sha1: 'a9993e364706816aba3e25717850c26c9cd0d89d',
        sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      },
    });
  });
  it('digests a workspace file the same as its text, in base64 on request', async () => {
    const fromFile = await h.ok<{ digests: Record<string, string> }>('file_hash', {
      path: 'abc.txt',
      algorithm: 'sha512',
      encoding: 'base64',
    });
    const fromText = await h.ok<{ digests: Record<string, string> }>('file_hash', {
      text: 'abc',
      algorithm: 'sha512',
      encoding: 'base64',
    });
    expect(fromFile.digests.sha512).toBe(fromText.digests.sha512);
    expect(fromFile.digests.sha512).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });
});
