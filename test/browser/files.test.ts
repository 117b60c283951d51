/**
 * Rule guarded: uploads take files from the workspace only (anything outside is refused), and
 * downloads land in the workspace downloads folder, listed with path, size and state.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, errorOf, refOf, startHarness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  writeFileSync(join(h.workspace, 'notes.txt'), 'hello');
  writeFileSync(join(h.workspace, 'photo.png'), Buffer.alloc(10));
});
afterAll(async () => {
  await h?.close();
});

describe('browser_file_upload', () => {
  let snap: string;
  beforeAll(async () => {
    await h.text('browser_navigate', { url: `${h.base}/upload.html` });
    snap = await h.text('browser_snapshot');
  });

  it('refuses a path that climbs out of the workspace', async () => {
    const err = errorOf(
      await h.call('browser_file_upload', { ref: refOf(snap, /button "Attachments"/), paths: ['../../etc/passwd'] }),
    );
    expect(err.code).toBe('PERMISSION_DENIED');
  });

  it('refuses an absolute path outside the workspace', async () => {
    expect(
      errorOf(
        await h.call('browser_file_upload', { ref: refOf(snap, /button "Attachments"/), paths: ['/etc/hostname'] }),
      ).code,
    ).toBe('PERMISSION_DENIED');
  });

  it('answers a file that does not exist with NOT_FOUND', async () => {
    expect(
      errorOf(await h.call('browser_file_upload', { ref: refOf(snap, /button "Attachments"/), paths: ['missing.txt'] }))
        .code,
    ).toBe('NOT_FOUND');
  });

  it('refuses two files for an input that takes one', async () => {
    expect(
      errorOf(
        await h.call('browser_file_upload', { ref: refOf(snap, /button "Single"/), paths: ['notes.txt', 'photo.png'] }),
      ).code,
    ).toBe('INVALID_ARGUMENT');
  });

  it('refuses an element that is no file input and opens no file chooser', async () => {
    const err = errorOf(
      await h.call('browser_file_upload', { ref: refOf(snap, /button "Does nothing"/), paths: ['notes.txt'] }),
    );
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toMatch(/did not open a file chooser/);
  });

  it('attaches workspace files to a multiple file input', async () => {
    await h.text('browser_file_upload', {
      ref: refOf(snap, /button "Attachments"/),
      paths: ['notes.txt', 'photo.png'],
    });
    expect(await h.text('browser_snapshot')).toContain('Chosen: notes.txt:5,photo.png:10');
  });

  it('attaches a file through the file chooser a button opens', async () => {
    await h.text('browser_file_upload', { ref: refOf(snap, /button "Choose avatar"/), paths: ['photo.png'] });
    expect(await h.text('browser_snapshot')).toContain('Avatar: photo.png');
  });
});

describe('downloads', () => {
  it('lists nothing before anything was downloaded', async () => {
    const result = await h.call('browser_download_list');
    expect(result.ok && result.structured).toEqual({ downloads: [], inProgress: 0 });
  });

  it('saves a clicked download into the workspace downloads folder and lists it completed with its size', async () => {
    await h.text('browser_navigate', { url: `${h.base}/downloads.html` });
    const snap = await h.text('browser_snapshot');
    await h.text('browser_click', { ref: refOf(snap, /link "Download report"/) });
    await h.text('browser_click', { ref: refOf(snap, /link "Download report"/) });
    let listed: Array<{ path: string; state: string; sizeBytes: number }> = [];
    for (let i = 0; i < 20 && listed.filter((d) => d.state === 'completed').length < 2; i++) {
      const result = await h.call('browser_download_list', { waitMs: 2000 });
      listed = result.ok ? (result.structured as { downloads: typeof listed }).downloads : [];
    }
    expect(listed.map((d) => [d.path, d.state, d.sizeBytes])).toEqual([
      ['downloads/report.csv', 'completed', 22],
      ['downloads/report (1).csv', 'completed', 22],
    ]);
    expect(readFileSync(join(h.workspace, 'downloads', 'report.csv'), 'utf8')).toBe('id,name\n1,Alice\n2,Bob\n');
    const failed = await h.call('browser_download_list', { state: 'failed' });
    expect(failed.ok && (failed.structured as { downloads: unknown[] }).downloads).toEqual([]);
  });
});
