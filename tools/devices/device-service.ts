/**
 * The device service a host owns: the manager (adb client, tracking, commands), the telemetry
 * the environment gate reads, the live screen and logcat sources for the UI, and the device list
 * for HostInfo.devices. It starts adb lazily (first call or `start()`), never at construction.
 */
import type { Disposable } from '../core/disposable';
import { type Clock, systemClock } from '../core/pipeline/clock';
import { TelemetryStore } from '../core/pipeline/environment-gate';
import { type LogcatTailOptions, tailLogcat } from './logcat-tail';
import { DeviceManager, type DeviceManagerOptions } from './manager/device-manager';
import { type DeviceScreenState, DeviceTelemetry, telemetryKey } from './manager/device-telemetry';
import type { DeviceChange, TrackedDevice } from './manager/device-tracker';
import { type ScreenFrame, type ScreenStream, type ScreenStreamOptions, startScreenStream } from './screen-stream';
import { ScreenHub, type ScreenHubOptions } from './screen/screen-hub';

export interface DeviceServiceOptions extends DeviceManagerOptions {
  /** The store the pipeline's environment gate reads (pass `pipeline.telemetry`); a private one otherwise. */
  telemetry?: TelemetryStore;
  /** How long after a UI action a hidden keyboard is not trusted (default 750 ms). */
  keyboardSettleMs?: number;
  /** The live screens' streams (screenrecord's time limit, viewer windows). */
  screens?: ScreenHubOptions;
}

/** A device as the Devices page shows it (shared/contract.ts DeviceView). */
export interface DeviceView extends TrackedDevice {
  telemetry: { screenOn?: boolean; foreground?: string; keyboardShown?: boolean; at?: number };
}

export interface DeviceService {
  readonly manager: DeviceManager;
  readonly telemetry: DeviceTelemetry;
  /** The live screens: one stream per watched phone, shared by its viewers. */
  readonly screens: ScreenHub;
  /** Starts adb and tracking now (otherwise the first call does). */
  start(): Promise<void>;
  /** The devices adb lists, for HostInfo.devices. */
  devices(): TrackedDevice[];
  /** The devices with their latest screen telemetry, for the Devices page. */
  views(): DeviceView[];
  onDevicesChanged(listener: (change: DeviceChange) => void): Disposable;
  /** The serial a call means: the one given, or the only attached device (throws a ToolCallError otherwise). */
  resolveSerial(serial?: string): Promise<string>;
  /**
   * The only tracked phone's usable transport, or undefined when there are none or several (never throws; for the
   * gate).
   */
  soleSerial(): string | undefined;
  /** Reads the screen state now and stores it as telemetry. */
  refreshTelemetry(serial?: string): Promise<DeviceScreenState>;
  startScreenStream(serial: string, onFrame: (frame: ScreenFrame) => void, opts?: ScreenStreamOptions): ScreenStream;
  tailLogcat(serial: string, onLines: (lines: string[]) => void, opts?: LogcatTailOptions): Disposable;
  close(): Promise<void>;
}

export function createDeviceService(opts: DeviceServiceOptions = {}): DeviceService {
  const clock: Clock = opts.clock ?? systemClock;
  const manager = new DeviceManager({ ...opts, clock });
  const store = opts.telemetry ?? new TelemetryStore(clock);
  const telemetry = new DeviceTelemetry(store, manager, clock, opts.keyboardSettleMs);
  const live = new Set<Disposable>();
  const screens = new ScreenHub(manager, opts.screens);

  const fetchModel = (serial: string) => {
    manager
      .shell(serial, 'getprop ro.product.model; getprop ro.serialno', { timeoutMs: 5_000 })
      .then((r) => {
        const [model = '', serialNumber = ''] = r.output.split('\n').map((l) => l.trim());
        if (r.exitCode !== 0) return;
        if (model) manager.tracker.setModel(serial, model);
        manager.setSerialNumber(serial, serialNumber);
      })
      .catch(() => undefined);
  };
  manager.tracker.onCheck(({ devices, at }) => telemetry.recordDevices(devices, at));
  manager.tracker.onChange((change) => {
    if (change.to === 'removed') telemetry.recordRemoved(change.serial, change.at);
    else if (change.to === 'device') fetchModel(change.serial);
    if (change.to !== 'device') telemetry.invalidate(change.serial);
  });

  const track = <T extends Disposable>(d: T): T => {
    live.add(d);
    const dispose = d.dispose.bind(d);
    d.dispose = () => {
      live.delete(d);
      dispose();
    };
    return d;
  };

  return {
    manager,
    telemetry,
    screens,
    start: () => manager.start(),
    devices: () => manager.devices(),
    views: () =>
      manager.devices().map((d) => {
        const t: DeviceView['telemetry'] = {};
        let at: number | undefined;
        for (const field of ['screenOn', 'foreground', 'keyboardShown'] as const) {
          const reading = store.read(telemetryKey(d.serial, field));
          if (reading === undefined) continue;
          Object.assign(t, { [field]: reading.value });
          at = Math.max(at ?? reading.at, reading.at);
        }
        if (at !== undefined) t.at = at;
        return { ...d, telemetry: t };
      }),
    onDevicesChanged: (listener) => manager.tracker.onChange(listener),
    resolveSerial: (serial) => manager.resolveSerial(serial),
    soleSerial() {
      // One phone may be listed twice (wireless debugging: its mDNS name and its IP:PORT).
      const phones = manager.phones();
      return phones.length === 1 ? phones[0]?.transports[0]?.serial : undefined;
    },
    async refreshTelemetry(serial) {
      return telemetry.refresh(await manager.resolveSerial(serial));
    },
    startScreenStream: (serial, onFrame, streamOpts) =>
      track(startScreenStream(manager, serial, onFrame, { clock, ...streamOpts })),
    tailLogcat: (serial, onLines, tailOpts) => track(tailLogcat(manager, serial, onLines, { clock, ...tailOpts })),
    async close() {
      screens.close();
      for (const d of [...live]) d.dispose();
      await manager.close();
    },
  };
}
