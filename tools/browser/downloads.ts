/**
 * Downloads of this browser session, saved into the workspace downloads folder (never the user's
 * home Downloads), with their state and size so `browser_download_list` can answer "did it finish?".
 */
import { existsSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { type Disposable, toDisposable } from '../core/disposable';

export type DownloadState = 'in_progress' | 'completed' | 'failed' | 'canceled';

export interface DownloadEntry {
  id: number;
  url: string;
  suggestedFilename: string;
  /** Where the file is (or will be) saved; absent while no downloads folder is configured. */
  path?: string;
  state: DownloadState;
  sizeBytes?: number;
  error?: string;
  startedAt: number;
  finishedAt?: number;
}

/** A file name that cannot climb out of the folder or carry control characters. */
export function safeFileName(suggested: string): string {
  const base = basename(suggested.replace(/\\/g, '/'))
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this removes
    .replace(/[\u0000-\u001f<>:"|?*]/g, '_')
    .trim();
  return base === '' || base === '.' || base === '..' ? 'download' : base.slice(0, 200);
}

export class DownloadTracker {
  private readonly entries: DownloadEntry[] = [];
  private readonly pending = new Set<Promise<void>>();
  private readonly reserved = new Set<string>();
  private nextId = 1;

  constructor(
    private readonly directory: () => string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  attach(page: Page): Disposable {
    const onDownload = (download: Download) => {
      const work = this.save(download);
      this.pending.add(work);
      void work.finally(() => this.pending.delete(work));
    };
    page.on('download', onDownload);
    return toDisposable(() => page.off('download', onDownload));
  }

  list(): DownloadEntry[] {
    return this.entries.map((e) => ({ ...e }));
  }

  get inProgress(): number {
    return this.pending.size;
  }

  /** Resolves when no download is running or after `timeoutMs`, whichever is first. */
  async waitForSettled(timeoutMs: number): Promise<void> {
    if (this.pending.size === 0 || timeoutMs <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    try {
      while (this.pending.size > 0) {
        const settled = Promise.allSettled([...this.pending]).then(() => 'settled' as const);
        if ((await Promise.race([settled, deadline.then(() => 'deadline' as const)])) === 'deadline') return;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private async save(download: Download): Promise<void> {
    const entry: DownloadEntry = {
      id: this.nextId++,
      url: download.url(),
      suggestedFilename: download.suggestedFilename(),
      state: 'in_progress',
      startedAt: this.now(),
    };
    this.entries.push(entry);
    const dir = this.directory();
    let target: string | undefined;
    try {
      if (dir) {
        await mkdir(dir, { recursive: true });
        target = this.reserve(dir, safeFileName(entry.suggestedFilename));
        entry.path = target;
        await download.saveAs(target);
      } else {
        entry.path = await download.path();
      }
      entry.sizeBytes = (await stat(entry.path)).size;
      entry.state = 'completed';
    } catch (e) {
      const failure = await download.failure().catch(() => null);
      entry.state = failure === 'canceled' ? 'canceled' : 'failed';
      entry.error = failure ?? (e instanceof Error ? e.message.split('\n')[0] : String(e));
    } finally {
      if (target) this.reserved.delete(target);
      entry.finishedAt = this.now();
    }
  }

  /** A free path in `dir`: `name.ext`, then `name (1).ext`…, also free of downloads still running. */
  private reserve(dir: string, name: string): string {
    const ext = extname(name);
    const stem = name.slice(0, name.length - ext.length);
    for (let i = 0; ; i++) {
      const candidate = join(dir, i === 0 ? name : `${stem} (${i})${ext}`);
      if (!this.reserved.has(candidate) && !existsSync(candidate)) {
        this.reserved.add(candidate);
        return candidate;
      }
    }
  }
}
