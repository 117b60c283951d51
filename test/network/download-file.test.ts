/**
 * Rule: download_file streams into the workspace with progress and publishes the file under its
 * name only when complete: a dropped connection, a cancel or the size cap leaves no partial file
 * and no temp litter, and no target path may leave the workspace folder.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProgressUpdate } from '../../tools/core/tool';
import { errorOf, type NetworkHarness, networkHarness } from './harness';
import { type LocalServer, startServer } from './local-http';

const FILE = Buffer.from(Array.from({ length: 600 * 1024 }, (_, i) => i % 251));
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let server: LocalServer;
let h: NetworkHarness;
let outside: string;
let stalled = 0;

beforeAll(async () => {
  server = await startServer({
    '/file.bin': (_q, res) =>
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': FILE.length }).end(FILE),
    '/v2.bin': (_q, res) => res.writeHead(200, { 'content-length': 3 }).end('new'),
    '/missing': (_q, res) => res.writeHead(404).end(),
    '/drops': (_q, res) => {
      res.writeHead(200, { 'content-length': FILE.length });
      res.write(FILE.subarray(0, 300 * 1024), () => res.destroy());
    },
    '/stalls': (_q, res) => {
      res.writeHead(200, { 'content-length': FILE.length });
      res.write(FILE.subarray(0, 300 * 1024), () => stalled++);
    },
    '/huge-declared': (_q, res) => res.writeHead(200, { 'content-length': 10 * 1024 * 1024 }).end(),
    '/huge-chunked': (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.alloc(2 * 1024 * 1024));
    },
  });
  outside = mkdtempSync(join(tmpdir(), 'net-outside-'));
});
afterAll(async () => {
  await server.close();
  rmSync(outside, { recursive: true, force: true });
});
beforeEach(() => {
  h = networkHarness({ maxDownloadBytes: 1024 * 1024 });
});
afterEach(() => h.dispose());

const listing = () => readdirSync(h.workspace, { recursive: true }).map(String).sort();

describe('download_file refuses and cleans up', () => {
  it.each(['../escape.bin', '/etc/escape.bin', 'a/../../escape.bin'])(
    'refuses the target %s outside the workspace with the files family guard',
    async (path) => {
      const error = errorOf(await h.call('download_file', { url: `${server.url}/file.bin`, path }));
      expect(error.code).toBe('PERMISSION_DENIED');
      expect(listing()).toEqual([]);
    },
  );

  it('refuses a target reached through a symlink that leads outside', async () => {
    symlinkSync(outside, join(h.workspace, 'link'));
    const error = errorOf(await h.call('download_file', { url: `${server.url}/file.bin`, path: 'link/escape.bin' }));
    expect(error).toMatchObject({ code: 'PERMISSION_DENIED', data: { rule: 'symlink-escape' } });
    expect(readdirSync(outside)).toEqual([]);
  });

  it.each(['.', 'folder'])('refuses the folder %s as a target', async (path) => {
    mkdirSync(join(h.workspace, 'folder'));
    const error = errorOf(await h.call('download_file', { url: `${server.url}/file.bin`, path }));
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', data: { fields: ['path'] } });
    expect(listing()).toEqual(['folder']);
  });

  it('refuses to replace an existing file unless overwrite is true', async () => {
    writeFileSync(join(h.workspace, 'keep.txt'), 'old');
    const error = errorOf(await h.call('download_file', { url: `${server.url}/v2.bin`, path: 'keep.txt' }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.hint).toContain('overwrite');
    expect(readFileSync(join(h.workspace, 'keep.txt'), 'utf8')).toBe('old');
    const replaced = await h.call('download_file', { url: `${server.url}/v2.bin`, path: 'keep.txt', overwrite: true });
    expect(replaced.ok).toBe(true);
    expect(readFileSync(join(h.workspace, 'keep.txt'), 'utf8')).toBe('new');
  });

  it('answers 404 with NOT_FOUND and writes nothing', async () => {
    expect(errorOf(await h.call('download_file', { url: `${server.url}/missing`, path: 'm.bin' })).code).toBe(
      'NOT_FOUND',
    );
    expect(listing()).toEqual([]);
  });

  it('leaves no partial file and no temp file when the server drops the connection mid-body', async () => {
    const error = errorOf(await h.call('download_file', { url: `${server.url}/drops`, path: 'sub/file.bin' }));
    expect(error.code).toBe('EXECUTION_FAILED');
    expect(listing()).toEqual(['sub']);
  });

  it('leaves no partial file and no temp file when the caller cancels mid-body', async () => {
    const controller = new AbortController();
    const before = stalled;
    const pending = h.call(
      'download_file',
      { url: `${server.url}/stalls`, path: 'file.bin' },
      { signal: controller.signal },
    );
    while (stalled === before) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    // The pipeline answers a cancelled call at once; the tool's own clean-up ends right after.
    expect(errorOf(await pending)).toMatchObject({
      message: "The call to 'download_file' was cancelled while it was running.",
      data: { cancelled: true },
    });
    await expect.poll(listing).toEqual([]);
  });

  it('refuses a file whose declared size is over the cap before reading it', async () => {
    const error = errorOf(await h.call('download_file', { url: `${server.url}/huge-declared`, path: 'h.bin' }));
    expect(error.code).toBe('EXECUTION_FAILED');
    expect(error.data).toMatchObject({ maxBytes: 1024 * 1024, size: 10 * 1024 * 1024 });
    expect(listing()).toEqual([]);
  });

  it('stops a body without a declared size once it passes the cap, and keeps nothing', async () => {
    const error = errorOf(await h.call('download_file', { url: `${server.url}/huge-chunked`, path: 'h.bin' }));
    expect(error.message).toMatch(/larger than the 1048576-byte download limit/);
    expect(listing()).toEqual([]);
  });

  it('lets a call lower the cap but not raise it above the host limit', async () => {
    const lowered = errorOf(
      await h.call('download_file', { url: `${server.url}/file.bin`, path: 'f.bin', maxBytes: 1000 }),
    );
    expect(lowered.data).toMatchObject({ maxBytes: 1000 });
    const raised = errorOf(
      await h.call('download_file', { url: `${server.url}/huge-declared`, path: 'f.bin', maxBytes: 1e9 }),
    );
    expect(raised.data).toMatchObject({ maxBytes: 1024 * 1024 });
  });

  it('refuses a data: URL', async () => {
    expect(errorOf(await h.call('download_file', { url: 'data:,x', path: 'x' })).code).toBe('INVALID_ARGUMENT');
  });
});

describe('download_file saves complete files', () => {
  it('streams into a new folder with progress up to the total and reports size and sha256', async () => {
    const updates: ProgressUpdate[] = [];
    const result = await h.call(
      'download_file',
      { url: `${server.url}/file.bin`, path: 'downloads/file.bin' },
      { onProgress: (p) => updates.push(p) },
    );
    expect(result.ok && result.structured).toEqual({
      path: 'downloads/file.bin',
      bytes: FILE.length,
      sha256: sha256(FILE),
      contentType: 'application/octet-stream',
      url: `${server.url}/file.bin`,
    });
    expect(readFileSync(join(h.workspace, 'downloads/file.bin')).equals(FILE)).toBe(true);
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.every((u) => u.total === FILE.length)).toBe(true);
    const progress = updates.map((u) => u.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(FILE.length);
    expect(listing()).toEqual(['downloads', join('downloads', 'file.bin')]);
  });

  it('accepts an absolute target path that lies inside the workspace', async () => {
    mkdirSync(join(h.workspace, 'in'));
    const result = await h.call('download_file', {
      url: `${server.url}/v2.bin`,
      path: join(h.workspace, 'in', 'v2.bin'),
    });
    expect(result.ok).toBe(true);
    expect(existsSync(join(h.workspace, 'in', 'v2.bin'))).toBe(true);
  });
});
