/**
 * Which devices the adb server knows and in what state. `host:track-devices` reports devices
 * added, removed and changing state, but a network device whose socket dropped turns `offline`
 * without any event, so a periodic state check (`host:devices`, answered
 * by the local server without touching a device) runs as well, and `check()` runs one on demand.
 * If tracking ends (the server restarted), it starts again on the next check.
 */
import type { Client, Device } from '@devicefarmer/adbkit';
import { type Disposable, Emitter } from '../../core/disposable';
import type { Clock, TimerHandle } from '../../core/pipeline/clock';
import { raceDeadline, startDeadline } from './adb-channel';
import { DeviceIoError, classifyAdbError } from './device-io-error';

/** adb's states: device (online), offline, unauthorized, authorizing, connecting, recovery, … */
export interface TrackedDevice {
  serial: string;
  state: string;
  model?: string;
}

export interface DeviceChange {
  serial: string;
  /** undefined: it was not listed before; `removed`: it is gone. */
  from: string | undefined;
  to: string | 'removed';
  at: number;
}

type AdbTracker = Awaited<ReturnType<Client['trackDevices']>>;

export class DeviceTracker {
  private readonly known = new Map<string, TrackedDevice>();
  private readonly changes = new Emitter<DeviceChange>();
  private readonly checks = new Emitter<{ devices: TrackedDevice[]; at: number }>();
  private tracker: AdbTracker | undefined;
  private timer: TimerHandle | undefined;
  private closed = false;

  constructor(
    private readonly client: Client,
    private readonly clock: Clock,
    private readonly opts: { checkIntervalMs: number; timeoutMs: number },
  ) {}

  list(): TrackedDevice[] {
    return [...this.known.values()].map((d) => ({ ...d })).sort((a, b) => a.serial.localeCompare(b.serial));
  }

  get(serial: string): TrackedDevice | undefined {
    const d = this.known.get(serial);
    return d ? { ...d } : undefined;
  }

  setModel(serial: string, model: string): void {
    const d = this.known.get(serial);
    if (d) d.model = model;
  }

  onChange(listener: (change: DeviceChange) => void): Disposable {
    return this.changes.on(listener);
  }

  /** Every completed state check, with the whole list (the telemetry stays fresh from these). */
  onCheck(listener: (check: { devices: TrackedDevice[]; at: number }) => void): Disposable {
    return this.checks.on(listener);
  }

  /** First list, tracking, and the periodic check. */
  async start(): Promise<void> {
    await this.check();
    this.schedule();
  }

  /** Asks the server for the current list now and applies the differences. */
  async check(): Promise<TrackedDevice[]> {
    const deadline = startDeadline(this.clock, this.opts.timeoutMs, '', 'listing devices');
    try {
      const devices = await raceDeadline<Device[]>(
        this.client.listDevices(),
        deadline.signal,
        () => new DeviceIoError('server-unreachable', 'the adb server did not list its devices in time'),
      );
      this.apply(devices.map((d) => ({ serial: d.id, state: d.type })));
      this.checks.emit({ devices: this.list(), at: this.clock.now() });
    } catch (e) {
      throw classifyAdbError(e);
    } finally {
      deadline.dispose();
    }
    if (!this.tracker && !this.closed) void this.track();
    return this.list();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.tracker?.end();
    this.tracker = undefined;
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = this.clock.setTimeout(() => {
      this.check().then(
        () => this.schedule(),
        () => this.schedule(),
      );
    }, this.opts.checkIntervalMs);
    // A state check must never keep the process alive on its own.
    (this.timer as { unref?: () => void } | undefined)?.unref?.();
  }

  private async track(): Promise<void> {
    const deadline = startDeadline(this.clock, this.opts.timeoutMs, '', 'starting device tracking');
    let tracker: AdbTracker;
    try {
      tracker = await raceDeadline<AdbTracker>(
        this.client.trackDevices(),
        deadline.signal,
        () => new DeviceIoError('timeout', 'tracking did not start'),
        (late) => late.end(),
      );
    } catch {
      return; // the next periodic check tries again
    } finally {
      deadline.dispose();
    }
    if (this.closed) {
      tracker.end();
      return;
    }
    this.tracker = tracker;
    tracker.on('changeSet', () => this.check().catch(() => undefined));
    const forget = () => {
      if (this.tracker === tracker) this.tracker = undefined;
    };
    tracker.on('error', forget);
    tracker.on('end', forget);
  }

  private apply(devices: { serial: string; state: string }[]): void {
    const now = this.clock.now();
    const seen = new Set<string>();
    for (const { serial, state } of devices) {
      seen.add(serial);
      const old = this.known.get(serial);
      if (old && old.state === state) continue;
      if (old) old.state = state;
      else this.known.set(serial, { serial, state });
      this.changes.emit({ serial, from: old?.state, to: state, at: now });
    }
    for (const [serial, old] of [...this.known]) {
      if (seen.has(serial)) continue;
      this.known.delete(serial);
      this.changes.emit({ serial, from: old.state, to: 'removed', at: now });
    }
  }
}
