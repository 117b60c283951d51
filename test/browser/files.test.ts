/**
 * Rule guarded: uploads take files from the workspace only (anything outside is refused), and a
 * download a page starts is a write: it waits for a person's approval (the host's approval queue)
 * and lands in the workspace downloads folder only when approved, listed with path, size and state;
 * denied, or with no one to approve, it is discarded.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalQueue } from '../../tools/host/approval-queue';
import { type Harness, errorOf, refOf, startHarness } from './harness';

let h: Harness;
const queue = new ApprovalQueue(60_000);

beforeAll(async () => {
  h = await startHarness({ decide: queue.decide });
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

interface Listed {
  file: string;
  path: string | null;
  state: string;
  sizeBytes: number | null;
  error?: string;
}

async function downloads(of: Harness = h): Promise<Listed[]> {
  const result = await of.call('browser_download_list', { waitMs: 2000 });
  return result.ok ? (result.structured as { downloads: Listed[] }).downloads : [];
}

/** Polls the list until `done` holds (bounded by a count of polls, not by time). */
async function listedUntil(done: (list: Listed[]) => boolean, of: Harness = h): Promise<Listed[]> {
  let list = await downloads(of);
  for (let i = 0; i < 40 && !done(list); i++) {
    await new Promise((r) => setTimeout(r, 50));
    list = await downloads(of);
  }
  return list;
}

async function waitingApproval() {
  for (let i = 0; i < 100 && queue.pending().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  const [item] = queue.pending();
  if (!item) throw new Error('no approval was asked for');
  return item;
}

const downloadsDir = () => join(h.workspace, 'downloads');

describe('downloads', () => {
  it('lists nothing before anything was downloaded', async () => {
    const result = await h.call('browser_download_list');
    expect(result.ok && result.structured).toEqual({ downloads: [], inProgress: 0 });
  });

  it('asks a person before a clicked download is written, and saves it into downloads/ once approved', async () => {
    await h.text('browser_navigate', { url: `${h.base}/downloads.html` });
    const snap = await h.text('browser_snapshot');
    const clicked = await h.text('browser_click', { ref: refOf(snap, /link "Download report"/) });
    expect(clicked).toMatch(/started a download: report\.csv from http:\/\/127\.0\.0\.1:\d+\/files\/report\.csv/);
    expect(clicked).toContain('waiting for approval');
    const item = await waitingApproval();
    expect(item).toMatchObject({
      toolId: 'browser_download',
      title: expect.stringMatching(
        /^browser download: report\.csv from http:\/\/127\.0\.0\.1:\d+\/files\/report\.csv$/,
      ),
      risk: 'HIGH',
    });
    expect((await downloads()).map((d) => [d.file, d.state, d.path])).toEqual([
      ['report.csv', 'awaiting_approval', null],
    ]);
    expect(existsSync(downloadsDir()) ? readdirSync(downloadsDir()) : []).toEqual([]);

    queue.answer(item.approvalId, { decision: 'approve_once', decider: 'test' });
    const listed = await listedUntil((l) => l[0]?.state === 'completed');
    expect(listed.map((d) => [d.path, d.state, d.sizeBytes])).toEqual([['downloads/report.csv', 'completed', 22]]);
    expect(readFileSync(join(downloadsDir(), 'report.csv'), 'utf8')).toBe('id,name\n1,Alice\n2,Bob\n');
  });

  it('discards a download the person denies, with their reason, and writes nothing', async () => {
    const snap = await h.text('browser_snapshot');
    await h.text('browser_click', { ref: refOf(snap, /link "Download report"/) });
    const item = await waitingApproval();
    queue.answer(item.approvalId, { decision: 'deny', reason: 'not this one', decider: 'test' });
    const listed = await listedUntil((l) => l[1]?.state === 'discarded');
    expect(listed[1]).toMatchObject({ state: 'discarded', path: null, error: 'denied: not this one' });
    expect(readdirSync(downloadsDir())).toEqual(['report.csv']);
    const failed = await h.call('browser_download_list', { state: 'failed' });
    expect(failed.ok && (failed.structured as { downloads: unknown[] }).downloads).toEqual([]);
  });

  it('names a second approved download of the same file "report (1).csv"', async () => {
    const snap = await h.text('browser_snapshot');
    await h.text('browser_click', { ref: refOf(snap, /link "Download report"/) });
    queue.answer((await waitingApproval()).approvalId, { decision: 'approve_once', decider: 'test' });
    const listed = await listedUntil((l) => l[2]?.state === 'completed');
    expect(listed[2]).toMatchObject({ path: 'downloads/report (1).csv', state: 'completed', sizeBytes: 22 });
  });
});

describe('downloads with no one to approve them', () => {
  let bare: Harness;
  beforeAll(async () => {
    bare = await startHarness();
  });
  afterAll(async () => {
    await bare?.close();
  });

  it('are discarded, the click says so, and nothing is written', async () => {
    await bare.text('browser_navigate', { url: `${bare.base}/downloads.html` });
    const snap = await bare.text('browser_snapshot');
    const clicked = await bare.text('browser_click', { ref: refOf(snap, /link "Download report"/) });
    expect(clicked).toMatch(/no one can give it here, so it was discarded/);
    const listed = await listedUntil((l) => l[0]?.state === 'discarded', bare);
    expect(listed[0]).toMatchObject({ state: 'discarded', path: null });
    expect(existsSync(join(bare.workspace, 'downloads'))).toBe(false);
  });
});
