/**
 * Downloads of this browser session. A download is a write into the workspace that a page, not the
 * model, chose (a page's `<a download>` clicked by browser_click), so it waits for a person like
 * write_file does: the browser receives it into Playwright's own temporary folder, outside the
 * workspace; a person is asked through the host's approval queue ("browser download: evil.sh from
 * http://…", recorded in the audit); only on approval is it saved into the workspace downloads
 * folder, and on denial, timeout or shutdown it is deleted. Without an approver nothing lands.
 * `browser_download_list` reports each state so the model can tell what became of it.
 */
import { existsSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { type Disposable, Emitter, toDisposable } from '../core/disposable';
import type { ApprovalDecider, ApprovalRequest } from '../core/permission';
import type { Requester } from '../core/tool';
import { redactUrlText } from '../network/secrets';

export type DownloadState = 'in_progress' | 'awaiting_approval' | 'completed' | 'discarded' | 'failed' | 'canceled';

export interface DownloadEntry {
  id: number;
  url: string;
  suggestedFilename: string;
  /** Where the file was saved in the workspace; only once a person approved it. */
  path?: string;
  state: DownloadState;
  sizeBytes?: number;
  /** Why it failed, or why it was discarded (the person's reason). */
  error?: string;
  startedAt: number;
  finishedAt?: number;
}

/** The tool call a download is charged to: the one running when the page started it, or the last one. */
export interface CallOrigin {
  callId: string;
  sessionId: string;
  requester: Requester;
}

export interface DownloadTrackerOptions {
  /** The workspace downloads folder; nothing is saved while it is unset. */
  directory: () => string | undefined;
  /** Asks a person (the host's approval queue); without one every download is discarded. */
  approve?: ApprovalDecider;
  origin?: () => CallOrigin | undefined;
  now?: () => number;
}

/** A file name that cannot climb out of the folder or carry control characters. */
export function safeFileName(suggested: string): string {
  const base = basename(suggested.replace(/\\/g, '/'))
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this removes
    .replace(/[\u0000-\u001f<>:"|?*]/g, '_')
    .trim();
  return base === '' || base === '.' || base === '..' ? 'download' : base.slice(0, 200);
}

const DOWNLOAD_ANNOTATIONS = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
  sensitiveAction: true,
};

export class DownloadTracker {
  private readonly entries: DownloadEntry[] = [];
  /** Downloads still arriving from the page (not those waiting for a person). */
  private readonly transfers = new Set<Promise<unknown>>();
  private readonly reserved = new Set<string>();
  private readonly approvedSessions = new Set<string>();
  private readonly started = new Emitter<DownloadEntry>();
  private closing = new AbortController();
  private nextId = 1;
  private readonly now: () => number;

  constructor(private readonly options: DownloadTrackerOptions) {
    this.now = options.now ?? Date.now;
  }

  attach(page: Page): Disposable {
    const onDownload = (download: Download) => void this.handle(download);
    page.on('download', onDownload);
    return toDisposable(() => page.off('download', onDownload));
  }

  list(): DownloadEntry[] {
    return this.entries.map((e) => ({ ...e }));
  }

  /** Hears each download as the page starts it (the tool that caused it says so in its answer). */
  onStarted(listener: (entry: DownloadEntry) => void): Disposable {
    return this.started.on((entry) => listener({ ...entry }));
  }

  /** False when no approver is wired: every download is discarded. */
  get canApprove(): boolean {
    return this.options.approve !== undefined;
  }

  get inProgress(): number {
    return this.transfers.size;
  }

  /** Resolves when no download is still arriving or after `timeoutMs`, whichever is first. */
  async waitForSettled(timeoutMs: number): Promise<void> {
    if (this.transfers.size === 0 || timeoutMs <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    try {
      while (this.transfers.size > 0) {
        const settled = Promise.allSettled([...this.transfers]).then(() => 'settled' as const);
        if ((await Promise.race([settled, deadline.then(() => 'deadline' as const)])) === 'deadline') return;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Withdraws every question still open (the browser is closing); those downloads are discarded. */
  withdraw(): void {
    this.closing.abort();
    this.closing = new AbortController();
  }

  private async handle(download: Download): Promise<void> {
    const entry: DownloadEntry = {
      id: this.nextId++,
      url: download.url(),
      suggestedFilename: download.suggestedFilename(),
      state: 'in_progress',
      startedAt: this.now(),
    };
    this.entries.push(entry);
    const origin = this.options.origin?.();
    this.started.emit(entry);
    try {
      const arrived = this.arrive(download, entry);
      this.transfers.add(arrived);
      try {
        if (!(await arrived)) return;
      } finally {
        this.transfers.delete(arrived);
      }
      entry.state = 'awaiting_approval';
      const refusal = await this.ask(entry, origin);
      if (refusal !== undefined) {
        entry.state = 'discarded';
        entry.error = refusal;
        await download.delete().catch(() => undefined);
        return;
      }
      await this.save(download, entry);
    } finally {
      entry.finishedAt = this.now();
    }
  }

  /** Waits for the bytes (into Playwright's temporary folder); false when the transfer failed. */
  private async arrive(download: Download, entry: DownloadEntry): Promise<boolean> {
    const failure = await download.failure().catch((e: unknown) => (e instanceof Error ? e.message : String(e)));
    if (failure !== null) {
      entry.state = failure === 'canceled' ? 'canceled' : 'failed';
      entry.error = failure.split('\n')[0];
      return false;
    }
    const local = await download.path().catch(() => null);
    if (local) entry.sizeBytes = (await stat(local).catch(() => undefined))?.size;
    return true;
  }

  /** undefined when a person approved; otherwise why the download is discarded. */
  private async ask(entry: DownloadEntry, origin: CallOrigin | undefined): Promise<string | undefined> {
    const { approve } = this.options;
    if (!approve) return 'no person can approve downloads here';
    if (origin && this.approvedSessions.has(origin.sessionId)) return undefined;
    const name = safeFileName(entry.suggestedFilename);
    const from = redactUrlText(entry.url) ?? 'the page';
    const request: ApprovalRequest = {
      callId: origin?.callId ?? `browser-download-${entry.id}`,
      sessionId: origin?.sessionId ?? '',
      toolId: 'browser_download',
      title: `browser download: ${name} from ${from}`,
      args: { file: name, url: from, ...(entry.sizeBytes !== undefined ? { sizeBytes: entry.sizeBytes } : {}) },
      risk: 'HIGH',
      annotations: DOWNLOAD_ANNOTATIONS,
      requester: origin?.requester ?? { kind: 'internal' },
    };
    try {
      const answer = await approve(request, this.closing.signal);
      if (answer.decision === 'approve_once') return undefined;
      if (answer.decision === 'approve_session') {
        if (origin) this.approvedSessions.add(origin.sessionId);
        return undefined;
      }
      return answer.reason?.trim() ? `denied: ${answer.reason.trim()}` : 'denied by the user';
    } catch (e) {
      return `approval could not be obtained: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  private async save(download: Download, entry: DownloadEntry): Promise<void> {
    const dir = this.options.directory();
    if (!dir) {
      entry.state = 'discarded';
      entry.error = 'no downloads folder is configured';
      await download.delete().catch(() => undefined);
      return;
    }
    let target: string | undefined;
    try {
      await mkdir(dir, { recursive: true });
      target = this.reserve(dir, safeFileName(entry.suggestedFilename));
      await download.saveAs(target);
      entry.path = target;
      entry.sizeBytes = (await stat(target)).size;
      entry.state = 'completed';
    } catch (e) {
      entry.state = 'failed';
      entry.error = e instanceof Error ? (e.message.split('\n')[0] ?? 'failed') : String(e);
    } finally {
      if (target) this.reserved.delete(target);
      await download.delete().catch(() => undefined);
    }
  }

  /** A free path in `dir`: `name.ext`, then `name (1).ext`…, also free of downloads being saved. */
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
