/**
 * Device state for the environment gate, with timestamps, in the host's TelemetryStore under
 * `device.<serial>.<field>`: online (from adb's device list), screenOn (`dumpsys power`
 * mWakefulness), foreground (`dumpsys activity activities` resumed activity) and keyboardShown
 * (`dumpsys input_method` mInputShown). Read with one shell command after UI-changing tools and
 * on demand. Values the gate cannot trust are deleted rather than guessed, so it fails open:
 * before a UI action runs its old state is dropped, and a keyboard read as hidden right after an
 * action is not recorded (a phone animates the keyboard in a few hundred ms after the tap).
 */
import type { Clock } from '../../core/pipeline/clock';
import type { TelemetryStore } from '../../core/pipeline/environment-gate';
import type { DeviceManager } from './device-manager';
import { deviceToolError } from './device-errors';
import type { TrackedDevice } from './device-tracker';

export type TelemetryField = 'online' | 'screenOn' | 'foreground' | 'keyboardShown';

/** What each reading means, as shortcut preconditions and the UI describe them. */
export const DEVICE_TELEMETRY_MEANINGS: Readonly<Record<TelemetryField, string>> = {
  online: 'true while adb lists the device as ready',
  screenOn: 'true while the screen is awake',
  foreground: 'the resumed activity, "package/activity"',
  keyboardShown: 'true while the on-screen keyboard is shown',
};

export function telemetryKey(serial: string, field: TelemetryField): string {
  return `device.${serial}.${field}`;
}

export interface DeviceScreenState {
  serial: string;
  screenOn: boolean | undefined;
  /** `package/activity` of the resumed activity. */
  foreground: string | undefined;
  keyboardShown: boolean | undefined;
  at: number;
}

const STATE_COMMAND =
  "dumpsys power | grep mWakefulness=; dumpsys activity activities | grep -E 'mResumedActivity|topResumedActivity'; dumpsys input_method | grep mInputShown=";

const UI_FIELDS: readonly TelemetryField[] = ['screenOn', 'foreground', 'keyboardShown'];

export function parseScreenState(serial: string, output: string, at: number): DeviceScreenState {
  const wake = /mWakefulness=(\w+)/.exec(output)?.[1];
  const resumed = /(?:mResumedActivity|topResumedActivity)[:=]\s*ActivityRecord\{\S+ u\d+ ([\w.]+\/[\w.$]+)/.exec(
    output,
  )?.[1];
  const shown = /mInputShown=(true|false)/.exec(output)?.[1];
  return {
    serial,
    screenOn: wake === undefined ? undefined : wake === 'Awake',
    foreground: resumed,
    keyboardShown: shown === undefined ? undefined : shown === 'true',
    at,
  };
}

export class DeviceTelemetry {
  private readonly lastAction = new Map<string, number>();

  constructor(
    readonly store: TelemetryStore,
    private readonly manager: DeviceManager,
    private readonly clock: Clock,
    private readonly settleMs = 750,
  ) {}

  /** adb's list: every listed device is online or not; the writes keep the readings fresh. */
  recordDevices(devices: readonly TrackedDevice[], at: number): void {
    for (const d of devices) this.store.set(telemetryKey(d.serial, 'online'), d.state === 'device', at);
  }

  recordRemoved(serial: string, at: number): void {
    this.store.set(telemetryKey(serial, 'online'), false, at);
    this.invalidate(serial);
  }

  /** Before a UI-changing action: the screen state is about to be unknown. */
  invalidate(serial: string): void {
    this.lastAction.set(serial, this.clock.now());
    for (const field of UI_FIELDS) this.store.delete(telemetryKey(serial, field));
  }

  /** Reads the screen state from the device now and records what can be trusted. */
  async refresh(serial: string, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<DeviceScreenState> {
    const result = await this.manager.shell(serial, STATE_COMMAND, {
      timeoutMs: opts.timeoutMs ?? 10_000,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (result.exitCode === null)
      throw deviceToolError(new Error('Connection closed'), serial, 'reading the screen state');
    const at = this.clock.now();
    const state = parseScreenState(serial, result.output, at);
    this.write(serial, 'screenOn', state.screenOn, at);
    this.write(serial, 'foreground', state.foreground, at);
    const settling = at - (this.lastAction.get(serial) ?? Number.NEGATIVE_INFINITY) < this.settleMs;
    this.write(
      serial,
      'keyboardShown',
      state.keyboardShown === false && settling ? undefined : state.keyboardShown,
      at,
    );
    return state;
  }

  /** What the store holds for a device, with the age of each reading (for the UI and tests). */
  snapshot(serial: string): Record<TelemetryField, { value: unknown; ageMs: number } | undefined> {
    const now = this.clock.now();
    const read = (field: TelemetryField) => {
      const r = this.store.read(telemetryKey(serial, field));
      return r ? { value: r.value, ageMs: now - r.at } : undefined;
    };
    return {
      online: read('online'),
      screenOn: read('screenOn'),
      foreground: read('foreground'),
      keyboardShown: read('keyboardShown'),
    };
  }

  private write(serial: string, field: TelemetryField, value: unknown, at: number): void {
    if (value === undefined) this.store.delete(telemetryKey(serial, field));
    else this.store.set(telemetryKey(serial, field), value, at);
  }
}
