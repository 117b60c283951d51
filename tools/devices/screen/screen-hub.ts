/**
 * Live phone screens for every viewer: one stream per phone, shared by all who watch it, started by
 * the first viewer and stopped when the last one leaves. The stream is H.264 from the phone's own
 * encoder (h264-source.ts) when screenrecord can do it, else screencap frames (screen-stream.ts),
 * and every viewer is told which and why. The pictures since the last key frame are kept, so a new
 * viewer starts at once at that key frame (or, when none is kept, the stream restarts for a fresh
 * one). Each viewer gets frames within its window (viewer-window.ts): one that falls behind skips
 * to the next key frame, and the host's memory stays bounded whatever a viewer does. A phone that
 * goes offline is not a phone without screenrecord: the viewers are told it is offline, and the
 * stream starts again when it is back.
 */
import type { ScreenMode, ScreenStatus, WireFrame } from '../../../shared/screen-wire';
import type { Disposable } from '../../core/disposable';
import type { DeviceManager } from '../manager/device-manager';
import { type ScreenStream, type ScreenStreamOptions, startScreenStream } from '../screen-stream';
import type { AccessUnit } from './annexb';
import { type DisplayGeometry, readGeometry } from './display-geometry';
import { type H264Source, type H264SourceOptions, startH264Source } from './h264-source';
import type { RecordParams } from './screenrecord-run';
import { type Size, chooseBitRate, chooseVideoSize, linkOf } from './stream-params';
import { DEFAULT_WINDOW, ViewerWindow, type WindowLimits } from './viewer-window';

export interface ScreenSink {
  /** Sends a frame; false when the transport could not take it now (its buffer is full). */
  frame(frame: WireFrame): boolean;
  status(status: ScreenStatus): void;
}

export interface ScreenViewer {
  /** The viewer has shown every frame up to `seq`. */
  ack(seq: number): void;
  close(): void;
}

export interface ScreenHubOptions extends H264SourceOptions {
  window?: WindowLimits;
  /** Pictures kept since the last key frame, in bytes, for viewers who join (default 8 MiB). */
  keptBytes?: number;
  /** How often the display's size and rotation are read while H.264 runs (default 5 s; 0: never). */
  geometryPollMs?: number;
  /** How often viewers get a status with the measured rate (default 1 s). */
  statusEveryMs?: number;
  screencap?: Omit<ScreenStreamOptions, 'onError'>;
}

export interface StreamStats {
  mode: ScreenMode;
  reason: string;
  viewers: { bytesInFlight: number; framesInFlight: number; skipped: number }[];
  keptBytes: number;
  restarts: number;
  frames: number;
  video?: Size;
}

interface Viewer {
  request: { maxWidth: number; maxHeight: number; h264: boolean };
  sink: ScreenSink;
  window: ViewerWindow;
}

const H264_REASON = 'H.264 from the phone’s own encoder (screenrecord), nothing installed on the phone.';

class PhoneStream {
  readonly viewers = new Set<Viewer>();
  mode: ScreenMode = 'starting';
  reason = 'Asking the phone for its screen…';
  private seq = 0;
  private display: DisplayGeometry | undefined;
  private codec: string | undefined;
  private kept: WireFrame[] = [];
  private keptBytes = 0;
  private source: H264Source | undefined;
  private screencap: ScreenStream | undefined;
  private latestPng: WireFrame | undefined;
  private readonly arrivals: number[] = [];
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  private readonly subscriptions: Disposable[] = [];
  private offline = false;
  private lastFreshRequest = 0;
  private polling = false;
  private stopped = false;
  frames = 0;

  constructor(
    private readonly manager: DeviceManager,
    readonly serial: string,
    private readonly opts: ScreenHubOptions,
  ) {}

  start(): void {
    this.timers.push(setInterval(() => this.broadcastStatus(), this.opts.statusEveryMs ?? 1_000));
    this.subscriptions.push(
      this.manager.tracker.onChange((change) => {
        if (change.serial !== this.serial) return;
        if (change.to === 'device') this.back();
        else this.wentOffline(change.to);
      }),
    );
    void this.startH264();
  }

  private wentOffline(state: string): void {
    if (this.stopped) return;
    this.offline = true;
    this.source?.stop();
    this.screencap?.dispose();
    this.source = this.screencap = undefined;
    this.kept = [];
    this.keptBytes = 0;
    this.mode = 'failed';
    this.reason = `The phone is ${state === 'removed' ? 'gone' : state}; its screen comes back when it reconnects.`;
    this.broadcastStatus();
  }

  private back(): void {
    if (this.stopped || !this.offline) return;
    this.offline = false;
    this.mode = 'starting';
    this.reason = 'The phone is back; asking it for its screen…';
    this.broadcastStatus();
    void this.startH264();
  }

  add(viewer: Viewer): void {
    this.viewers.add(viewer);
    if (!viewer.request.h264 && (this.mode === 'h264' || this.mode === 'starting'))
      this.switchToScreencap(
        'A viewer’s page cannot decode H.264 (no WebCodecs VideoDecoder), so screenshots are sent.',
      );
    this.sendStatus(viewer);
    if (this.mode === 'h264') {
      if (this.kept[0]?.key) for (const frame of this.kept) this.send(viewer, frame);
      else this.freshKeyFrame();
      this.growFor(viewer);
    } else if (this.mode === 'screencap' && this.latestPng) this.send(viewer, this.latestPng);
  }

  remove(viewer: Viewer): void {
    this.viewers.delete(viewer);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    for (const s of this.subscriptions) s.dispose();
    this.source?.stop();
    this.screencap?.dispose();
    this.source = this.screencap = undefined;
    this.kept = [];
    this.keptBytes = 0;
  }

  stats(): StreamStats {
    return {
      mode: this.mode,
      reason: this.reason,
      viewers: [...this.viewers].map((v) => ({
        bytesInFlight: v.window.bytesInFlight,
        framesInFlight: v.window.framesInFlight,
        skipped: v.window.skipped,
      })),
      keptBytes: this.keptBytes,
      restarts: this.source?.restarts ?? 0,
      frames: this.frames,
      ...(this.source ? { video: { width: this.source.params.width, height: this.source.params.height } } : {}),
    };
  }

  // ── H.264 ──

  private biggestCanvas(): Size {
    const all = [...this.viewers].map((v) => v.request);
    return {
      width: Math.max(16, ...all.map((r) => r.maxWidth)),
      height: Math.max(16, ...all.map((r) => r.maxHeight)),
    };
  }

  private paramsFor(display: Size): RecordParams {
    const video = chooseVideoSize(display, this.biggestCanvas());
    return { ...video, bitRate: chooseBitRate(video, linkOf(this.serial)), timeLimitS: this.opts.timeLimitS ?? 180 };
  }

  private async startH264(): Promise<void> {
    let display: DisplayGeometry | undefined;
    let problem = '';
    try {
      display = await readGeometry(this.manager, this.serial);
    } catch (e) {
      problem = (e as Error).message;
    }
    if (this.stopped || this.mode !== 'starting') return;
    if (!display)
      return this.switchToScreencap(
        `The display size could not be read (wm size${problem ? `: ${problem}` : ''}), so screenshots are sent.`,
      );
    this.display = display;
    this.source = startH264Source(
      this.manager,
      this.serial,
      this.paramsFor(display),
      {
        onUnit: (unit, fresh, codec) => this.onUnit(unit, fresh, codec),
        onDamage: () => this.onDamage(),
        onFailure: (reason) => {
          // A run that failed because the link went is the phone's absence, not screenrecord's failure.
          if (this.manager.tracker.get(this.serial)?.state !== 'device') this.wentOffline('offline');
          else
            this.switchToScreencap(`screenrecord cannot stream from this phone (${reason}), so screenshots are sent.`);
        },
      },
      this.opts,
    );
    const poll = this.opts.geometryPollMs ?? 5_000;
    if (poll > 0 && !this.polling) {
      this.polling = true;
      this.timers.push(setInterval(() => void this.checkGeometry(), poll));
    }
  }

  private onUnit(unit: AccessUnit, fresh: boolean, codec: string): void {
    if (this.stopped || !this.source) return;
    if (fresh && (this.mode !== 'h264' || codec !== this.codec)) {
      this.mode = 'h264';
      this.reason = H264_REASON;
      this.codec = codec;
      this.broadcastStatus();
    }
    const frame: WireFrame = { kind: 'h264', key: unit.key, seq: ++this.seq, at: Date.now(), data: unit.data };
    this.keep(frame);
    this.arrived();
    for (const viewer of this.viewers) this.send(viewer, frame);
  }

  /**
   * Keeps the pictures since the last key frame, within the budget; past it, new viewers get a fresh key frame instead.
   */
  private keep(frame: WireFrame): void {
    if (frame.key) {
      this.kept = [];
      this.keptBytes = 0;
    } else if (!this.kept[0]) return;
    this.kept.push(frame);
    this.keptBytes += frame.data.length;
    if (this.keptBytes > (this.opts.keptBytes ?? 8 * 1024 * 1024)) {
      this.kept = [];
      this.keptBytes = 0;
    }
  }

  private onDamage(): void {
    this.kept = [];
    this.keptBytes = 0;
    for (const viewer of this.viewers) viewer.window.requireKey();
    this.freshKeyFrame();
  }

  /** A new run, for a key frame now (a phone's encoder may send the next one only seconds later). */
  private freshKeyFrame(): void {
    const now = Date.now();
    if (!this.source || now - this.lastFreshRequest < 2_000) return;
    this.lastFreshRequest = now;
    this.source.restart();
  }

  /** A viewer with a larger canvas than the video was sized for gets a larger video. */
  private growFor(viewer: Viewer): void {
    if (!this.source || !this.display) return;
    const wanted = this.paramsFor(this.display);
    const now = this.source.params;
    if (wanted.width > now.width && viewer.request.maxWidth > now.width) this.source.restart(wanted);
  }

  private async checkGeometry(): Promise<void> {
    if (this.mode !== 'h264' || !this.source) return;
    const seen = await readGeometry(this.manager, this.serial).catch(() => undefined);
    if (!seen || this.stopped || !this.source || !this.display) return;
    if (seen.width === this.display.width && seen.height === this.display.height) return;
    // Rotated (or resized): the taps map to the new size, and the video follows it.
    this.display = seen;
    this.source.restart(this.paramsFor(seen));
    this.broadcastStatus();
  }

  // ── screencap ──

  private switchToScreencap(reason: string): void {
    if (this.stopped || this.offline) return;
    this.source?.stop();
    this.source = undefined;
    this.kept = [];
    this.keptBytes = 0;
    this.mode = 'screencap';
    this.reason = reason;
    this.broadcastStatus();
    if (this.screencap) return;
    this.screencap = startScreenStream(
      this.manager,
      this.serial,
      (shot) => {
        if (this.stopped) return;
        if (this.mode !== 'screencap') {
          this.mode = 'screencap';
          this.reason = reason;
        }
        this.display = { width: shot.width, height: shot.height, rotation: 0 };
        const frame: WireFrame = { kind: 'png', key: true, seq: ++this.seq, at: shot.at, data: shot.png };
        this.latestPng = frame;
        this.arrived();
        for (const viewer of this.viewers) this.send(viewer, frame);
      },
      {
        ...this.opts.screencap,
        onError: (e) => {
          this.mode = 'failed';
          this.reason = `No picture from the phone: ${e.message}`;
          this.broadcastStatus();
        },
      },
    );
  }

  // ── viewers ──

  private send(viewer: Viewer, frame: WireFrame): void {
    if (!viewer.window.offer(frame.seq, frame.data.length, frame.key)) return;
    if (!viewer.sink.frame(frame)) viewer.window.unsend(frame.seq);
  }

  private arrived(): void {
    const now = Date.now();
    this.frames++;
    this.arrivals.push(now);
    while ((this.arrivals[0] ?? now) <= now - 1_000) this.arrivals.shift();
  }

  private status(viewer: Viewer): ScreenStatus {
    const now = Date.now();
    while ((this.arrivals[0] ?? now) <= now - 1_000) this.arrivals.shift();
    const video = this.mode === 'h264' ? this.source?.params : undefined;
    return {
      type: 'status',
      mode: this.mode,
      reason: this.reason,
      ...(this.display ? { display: { width: this.display.width, height: this.display.height } } : {}),
      ...(this.mode === 'h264' && this.codec ? { codec: this.codec } : {}),
      ...(video ? { video: { width: video.width, height: video.height }, bitRate: video.bitRate } : {}),
      sourceFps: this.arrivals.length,
      skipped: viewer.window.skipped,
      restarts: this.source?.restarts ?? 0,
    };
  }

  private sendStatus(viewer: Viewer): void {
    try {
      viewer.sink.status(this.status(viewer));
    } catch {
      // A viewer whose transport is gone is removed when it closes.
    }
  }

  private broadcastStatus(): void {
    for (const viewer of this.viewers) this.sendStatus(viewer);
  }
}

export class ScreenHub {
  private readonly streams = new Map<string, PhoneStream>();

  constructor(
    private readonly manager: DeviceManager,
    private readonly opts: ScreenHubOptions = {},
  ) {}

  /** Starts showing `request.serial` to `sink`; the viewer's `close()` leaves (the last one stops the stream). */
  watch(
    request: { serial: string; maxWidth: number; maxHeight: number; h264?: boolean },
    sink: ScreenSink,
  ): ScreenViewer {
    const known = this.manager.tracker.get(request.serial);
    if (known?.state !== 'device') {
      const reason = known
        ? `Device '${request.serial}' is ${known.state}; reconnect it (cable or \`adb connect\`) to see its screen.`
        : `No device '${request.serial}' is attached.`;
      sink.status({ type: 'status', mode: 'failed', reason, sourceFps: 0, skipped: 0, restarts: 0 });
      return { ack: () => undefined, close: () => undefined };
    }
    let stream = this.streams.get(request.serial);
    if (!stream) {
      stream = new PhoneStream(this.manager, request.serial, this.opts);
      this.streams.set(request.serial, stream);
      const viewer = this.viewer(request, sink);
      stream.add(viewer);
      stream.start();
      return this.handle(stream, viewer);
    }
    const viewer = this.viewer(request, sink);
    stream.add(viewer);
    return this.handle(stream, viewer);
  }

  /** The stream of a phone while someone watches it. */
  stats(serial: string): StreamStats | undefined {
    return this.streams.get(serial)?.stats();
  }

  get watchedPhones(): number {
    return this.streams.size;
  }

  close(): void {
    for (const stream of this.streams.values()) stream.stop();
    this.streams.clear();
  }

  private viewer(request: { maxWidth: number; maxHeight: number; h264?: boolean }, sink: ScreenSink): Viewer {
    return {
      request: { maxWidth: request.maxWidth, maxHeight: request.maxHeight, h264: request.h264 ?? true },
      sink,
      window: new ViewerWindow(this.opts.window ?? DEFAULT_WINDOW),
    };
  }

  private handle(stream: PhoneStream, viewer: Viewer): ScreenViewer {
    let closed = false;
    return {
      ack: (seq) => viewer.window.ack(seq),
      close: () => {
        if (closed) return;
        closed = true;
        stream.remove(viewer);
        if (stream.viewers.size === 0 && this.streams.get(stream.serial) === stream) {
          stream.stop();
          this.streams.delete(stream.serial);
        }
      },
    };
  }
}
