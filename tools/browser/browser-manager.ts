/**
 * BrowserManager: one browser session for the browser tools and the mirror view. Launches lazily
 * (or connects over CDP), tracks tabs and the active one, keeps per-session logs (network, console,
 * downloads, dialogs, recent actions), publishes telemetry for the environment gate, and recovers
 * from a crashed tab or a closed browser: the loss is reported once, the next call relaunches.
 */
import type { Frame, Page, Request } from 'playwright-core';
import { SelfGuard } from '../common/self-guard';
import { type Disposable, Emitter } from '../core/disposable';
import type { ApprovalDecider } from '../core/permission';
import { ToolCallError, type ToolErrorCode } from '../core/result';
import { ConsoleLog } from './console-log';
import { DialogWatcher } from './dialogs';
import { type CallOrigin, DownloadTracker } from './downloads';
import { type BrowserSession, type LaunchSettings, type SessionMode, startSession } from './launch';
import { NetworkLog } from './network-log';
import { type LoadRules, evictRefused, guardContext } from './request-guard';
import { RingBuffer } from './ring-buffer';
import { type TabInfo, TabList } from './tab-list';
import { type ScreencastFrame, type ScreencastOptions, startScreencast } from './screencast';
import { TelemetryTracker, type BrowserTelemetry } from './telemetry';

export interface BrowserManagerOptions extends LaunchSettings {
  /** Where approved downloads are saved; `browserTools` sets `<workspace>/downloads` when this is absent. */
  downloadsDir?: string;
  /** The only folder file: URLs may open; `browserTools` sets its workspace when this is absent. */
  workspaceRoot?: string;
  /** Asks a person whether a download a page started may land in the workspace; without it, downloads are discarded. */
  approveDownload?: ApprovalDecider;
  /** Wait for an element to become actionable at most this long (default 5 s). */
  actionTimeoutMs?: number;
  /** Default navigation timeout (default 30 s). */
  navigationTimeoutMs?: number;
  /** Epoch-ms clock for timestamps; injected by tests. */
  now?: () => number;
  networkLogSize?: number;
  consoleLogSize?: number;
  actionLogSize?: number;
}

/** A tab crash or a browser that went away without us closing it. Reported to the model once. */
export interface BrowserLoss {
  kind: 'crash' | 'closed';
  url: string | undefined;
  at: number;
}

export interface ActionRecord {
  tool: string;
  target: string;
  at: number;
  ok: boolean;
  /** The error code of a failed action (PERMISSION_DENIED: Toolgate refused it). */
  code?: ToolErrorCode;
}

export class BrowserManager {
  readonly network: NetworkLog;
  readonly console: ConsoleLog;
  readonly downloads: DownloadTracker;
  readonly dialogs: DialogWatcher;
  readonly now: () => number;
  private session: BrowserSession | undefined;
  private starting: Promise<BrowserSession> | undefined;
  private sessionDetach: Disposable[] = [];
  private readonly tabList = new TabList();
  private loss: BrowserLoss | undefined;
  private closing = false;
  private downloadsDir: string | undefined;
  private workspaceRoot: string | undefined;
  private readonly rules: LoadRules;
  private lastCall: CallOrigin | undefined;
  private readonly refusals: RingBuffer<{ seq: number; refusal: ToolCallError }>;
  private refusalSeq = 0;
  private readonly actions: RingBuffer<ActionRecord>;
  private readonly lost = new Emitter<BrowserLoss>();
  private readonly telemetryState: TelemetryTracker;
  /** Tabs that asked for a new document whose load event has not fired yet. */
  private readonly loadingPages = new WeakSet<Page>();

  constructor(readonly options: BrowserManagerOptions = {}) {
    this.now = options.now ?? Date.now;
    this.network = new NetworkLog(options.networkLogSize ?? 500, this.now);
    this.console = new ConsoleLog(options.consoleLogSize ?? 300, this.now);
    this.downloadsDir = options.downloadsDir;
    this.workspaceRoot = options.workspaceRoot;
    const self = options.self ?? new SelfGuard();
    this.rules = { self, workspaceRoot: () => this.workspaceRoot };
    this.refusals = new RingBuffer(20);
    this.downloads = new DownloadTracker({
      directory: () => this.downloadsDir,
      ...(options.approveDownload ? { approve: options.approveDownload } : {}),
      origin: () => this.lastCall,
      now: this.now,
    });
    this.dialogs = new DialogWatcher(this.now);
    this.actions = new RingBuffer(options.actionLogSize ?? 50);
    this.telemetryState = new TelemetryTracker(this.now);
    this.dialogs.onOpened(() => this.noteState());
    this.dialogs.onClosed(() => this.noteState());
    this.tabList.onActiveChanged(() => this.noteState());
  }

  get actionTimeoutMs(): number {
    return this.options.actionTimeoutMs ?? 5_000;
  }

  get navigationTimeoutMs(): number {
    return this.options.navigationTimeoutMs ?? 30_000;
  }

  get started(): boolean {
    return this.session !== undefined;
  }

  /** Sets the downloads folder unless the host already configured one. */
  useDownloadsDir(dir: string, override = false): void {
    if (override || this.downloadsDir === undefined) this.downloadsDir = dir;
  }

  /** Sets the folder file: URLs may open unless the host already configured one. */
  useWorkspace(root: string): void {
    this.workspaceRoot ??= root;
  }

  /** What the browser may load (request-guard.ts), for checks made before a navigation. */
  get loadRules(): LoadRules {
    return this.rules;
  }

  /** The tool call now driving the browser: a download the page starts is charged to it. */
  noteCall(origin: CallOrigin): void {
    this.lastCall = { callId: origin.callId, sessionId: origin.sessionId, requester: origin.requester };
  }

  /** A mark to pass to `refusalsSince`. */
  refusalMark(): number {
    return this.refusalSeq;
  }

  /** What the browser refused to load since `mark` (oldest first, one per distinct message). */
  refusalsSince(mark: number): ToolCallError[] {
    const seen = new Map<string, ToolCallError>();
    for (const r of this.refusals.toArray())
      if (r.seq > mark && !seen.has(r.refusal.message)) seen.set(r.refusal.message, r.refusal);
    return [...seen.values()];
  }

  /** The active tab, launching the browser or opening a tab when there is none. */
  async page(): Promise<Page> {
    const session = await this.ensureSession();
    const active = this.tabList.active();
    if (active) return active;
    const page = await session.context.newPage();
    this.adopt(page);
    return page;
  }

  /** The active tab's page without launching anything. */
  activePage(): Page | undefined {
    return this.tabList.active();
  }

  /** The open tabs in order, with fresh titles. */
  tabs(): Promise<TabInfo[]> {
    return this.tabList.infos();
  }

  /**
   * Which browser the tools drive, as configured: the one the browser tools keep their breakers
   * per, so a browser that stopped answering does not pause the tools once another is configured.
   */
  breakerScope(): string {
    const o = this.options;
    if (o.cdpEndpoint) return `cdp ${o.cdpEndpoint}`;
    if (o.playwrightServer) return `server ${o.playwrightServer}`;
    return `${o.userDataDir ? 'persistent' : 'launch'} ${o.executablePath ?? 'auto'}`;
  }

  /**
   * How the running browser was reached (launched, persistent profile, CDP, Playwright server); undefined before the
   * first call.
   */
  connection(): { mode: SessionMode; target: string; headless?: boolean } | undefined {
    const s = this.session;
    if (!s) return undefined;
    return { mode: s.mode, target: s.target, ...(s.headless !== undefined ? { headless: s.headless } : {}) };
  }

  tabsNow(): TabInfo[] {
    return this.tabList.list();
  }

  /** How many tabs are open and which one (0-based) is active, -1 for none; without asking the browser. */
  tabSummary(): { count: number; activeIndex: number } {
    return this.tabList.summary();
  }

  /** Makes the tab at `index` (0-based, as listed by `tabs()`) the active one. */
  async selectTab(index: number): Promise<Page | undefined> {
    const page = this.tabList.activateIndex(index);
    await page?.bringToFront().catch(() => undefined);
    return page;
  }

  onActivePageChanged(listener: (page: Page | undefined) => void): Disposable {
    return this.tabList.onActiveChanged(listener);
  }

  /** The crash or disconnect not yet reported to the model, cleared by taking it. */
  takeLoss(): BrowserLoss | undefined {
    const loss = this.loss;
    this.loss = undefined;
    return loss;
  }

  /**
   * Like takeLoss, but waits up to `graceMs` for a loss whose event is still on its way (a crash surfaces after the
   * failed call).
   */
  async awaitLoss(graceMs: number): Promise<BrowserLoss | undefined> {
    if (this.loss) return this.takeLoss();
    let handle: Disposable | undefined;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      handle = this.lost.on(() => resolve());
      timer = setTimeout(resolve, graceMs);
    });
    handle?.dispose();
    clearTimeout(timer);
    return this.takeLoss();
  }

  telemetry(): BrowserTelemetry {
    this.noteState();
    return this.telemetryState.snapshot(this.dialogs.pending(this.activePage()));
  }

  recordAction(tool: string, target: string, ok: boolean, code?: ToolErrorCode): void {
    this.actions.push({ tool, target, at: this.now(), ok, ...(!ok && code ? { code } : {}) });
  }

  /** The last actions the tools performed, oldest first (the mirror view shows them next to the page). */
  recentActions(limit = 20): ActionRecord[] {
    return this.actions.last(limit);
  }

  /** Streams JPEG frames of the active tab, following tab switches and relaunches, until disposed. */
  startScreencast(onFrame: (frame: ScreencastFrame) => void, options: ScreencastOptions = {}): Promise<Disposable> {
    return startScreencast(this, onFrame, options);
  }

  async close(): Promise<void> {
    // A launch still in flight would otherwise attach a browser nobody closes.
    const session = this.session ?? (await this.starting?.catch(() => undefined));
    this.closing = true;
    this.downloads.withdraw();
    try {
      this.dropSession();
      if (session) {
        if (session.owned) await (session.browser ?? session.context).close().catch(() => undefined);
        else await session.browser?.close().catch(() => undefined);
      }
    } finally {
      this.closing = false;
      this.loss = undefined;
    }
  }

  private async ensureSession(): Promise<BrowserSession> {
    if (this.session) return this.session;
    this.starting ??= startSession(this.options).then(
      async (session) => {
        try {
          await guardContext(session.context, this.rules, (refusal) => this.noteRefusal(refusal));
        } catch (e) {
          this.starting = undefined;
          if (session.owned) await (session.browser ?? session.context).close().catch(() => undefined);
          else await session.browser?.close().catch(() => undefined);
          throw new ToolCallError(
            'EXECUTION_FAILED',
            'The browser started, but Toolgate could not watch what it loads ' +
              `(${(e as Error).message.split('\n')[0]}), so it is not used.`,
            { hint: 'Tell the user; a browser server or CDP endpoint of an old version may lack request routing.' },
          );
        }
        this.starting = undefined;
        this.attachSession(session);
        return session;
      },
      (e: unknown) => {
        this.starting = undefined;
        throw e;
      },
    );
    return this.starting;
  }

  private attachSession(session: BrowserSession): void {
    this.session = session;
    this.loss = undefined;
    const onPage = (page: Page) => this.adopt(page);
    const onGone = () => {
      if (this.session !== session) return;
      const url = this.activePage()?.url();
      this.dropSession();
      if (!this.closing) this.reportLoss({ kind: 'closed', url, at: this.now() });
    };
    session.context.on('page', onPage);
    session.context.on('close', onGone);
    session.browser?.on('disconnected', onGone);
    this.sessionDetach = [
      this.network.attach(session.context),
      {
        dispose: () => {
          session.context.off('page', onPage);
          session.context.off('close', onGone);
          session.browser?.off('disconnected', onGone);
        },
      },
    ];
    for (const page of session.context.pages()) this.adopt(page);
  }

  private dropSession(): void {
    for (const d of this.sessionDetach) d.dispose();
    this.sessionDetach = [];
    this.session = undefined;
    this.tabList.clear();
  }

  private adopt(page: Page): void {
    if (this.tabList.has(page)) return;
    const onCrash = () => {
      this.reportLoss({ kind: 'crash', url: page.url(), at: this.now() });
      this.tabList.remove(page);
      void page.close().catch(() => undefined);
    };
    const onClose = () => this.tabList.remove(page);
    const onNavigated = (frame: Frame) => {
      evictRefused(frame, this.rules, (refusal) => this.noteRefusal(refusal));
      if (page === this.tabList.active()) this.noteState();
    };
    const onLoad = () => {
      this.loadingPages.delete(page);
      if (page === this.tabList.active()) this.noteState();
      void this.tabList.refreshTitle(page);
    };
    // A new document is on its way (not a same-document move, which sends no request): the tab
    // loads until its load event, or until that request fails.
    const onRequest = (request: Request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        this.loadingPages.add(page);
        if (page === this.tabList.active()) this.noteState();
      }
    };
    const onRequestFailed = (request: Request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        this.loadingPages.delete(page);
        if (page === this.tabList.active()) this.noteState();
      }
    };
    page.on('crash', onCrash);
    page.on('request', onRequest);
    page.on('requestfailed', onRequestFailed);
    page.on('close', onClose);
    page.on('framenavigated', onNavigated);
    page.on('load', onLoad);
    this.tabList.add(page, [
      this.dialogs.attach(page),
      this.console.attach(page),
      this.downloads.attach(page),
      {
        dispose: () => {
          page.off('crash', onCrash);
          page.off('close', onClose);
          page.off('framenavigated', onNavigated);
          page.off('load', onLoad);
          page.off('request', onRequest);
          page.off('requestfailed', onRequestFailed);
        },
      },
    ]);
  }

  private noteRefusal(refusal: ToolCallError): void {
    this.refusals.push({ seq: ++this.refusalSeq, refusal });
  }

  private reportLoss(loss: BrowserLoss): void {
    this.loss = loss;
    this.lost.emit(loss);
  }

  private noteState(): void {
    const page = this.activePage();
    this.telemetryState.observe({
      started: this.session !== undefined,
      pageOpen: page !== undefined,
      dialogOpen: this.dialogs.pending(page) !== undefined,
      loading: page !== undefined && this.loadingPages.has(page),
      url: page?.url(),
    });
  }
}
