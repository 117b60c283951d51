/**
 * Device state for the environment gate, with timestamps, in the host's TelemetryStore under
 * `device.<serial>.<field>`: online (from adb's device list), screenOn (`dumpsys power`
 * mWakefulness), foreground (`dumpsys activity activities`: `topResumedActivity=` since Android
 * 12, `mResumedActivity:` before), keyboardShown (`dumpsys input_method` mInputShown), locked (the
 * window policy's KeyguardStateMonitor `mIsShowing=`, `mShowingLockscreen=` on old builds) and
 * hardwareKeyboard (an input device of KeyboardType 2, alphabetic, in `dumpsys input`, other than the
 * system's own virtual keyboard, Device -1, which every phone lists); beside
 * them the display's size (`wm size` turned by the rotation `dumpsys input` reports: a phone held in
 * landscape is addressed as 2400x1080), which a tap or swipe by coordinates checks against. Read with
 * one shell command on demand and after UI-changing tools: in the shell line of their last action
 * when its answer reports on it (a swipe says whether the phone is still locked), otherwise once the
 * action has answered (`refreshSoon`), while the agent reads the answer; the environment gate waits
 * for that read (`pending`) before it decides. A read that a newer action overtook is not recorded.
 * Values the gate cannot trust are deleted rather than guessed, so it fails open:
 * before a UI action runs its old state is dropped, and a keyboard read as hidden right after an
 * action is not recorded (a phone animates the keyboard in a few hundred ms after the tap).
 */
import type { Clock } from '../../core/pipeline/clock';
import type { TelemetryStore } from '../../core/pipeline/environment-gate';
import type { DeviceManager } from './device-manager';
import { deviceToolError } from './device-errors';
import type { TrackedDevice } from './device-tracker';
import { parseGeometry } from '../screen/display-geometry';

export type TelemetryField = 'online' | 'screenOn' | 'foreground' | 'keyboardShown' | 'locked' | 'hardwareKeyboard';

/** What each reading means, as shortcut preconditions and the UI describe them. */
export const DEVICE_TELEMETRY_MEANINGS: Readonly<Record<TelemetryField, string>> = {
  online: 'true while adb lists the device as ready',
  screenOn: 'true while the screen is awake',
  foreground: 'the resumed activity, "package/activity"',
  keyboardShown: 'true while the on-screen keyboard is shown',
  locked: 'true while the lock screen (keyguard) shows',
  hardwareKeyboard: 'true while a hardware keyboard is attached',
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
  /** The keyguard shows. */
  locked: boolean | undefined;
  /** A hardware keyboard is attached (then no soft keyboard shows for a focused field). */
  hardwareKeyboard: boolean | undefined;
  at: number;
}

/** The one shell command that reads the screen state (a refresh runs it; UI actions append it to their own line). */
export const STATE_COMMAND = [
  'dumpsys power | grep mWakefulness=',
  "dumpsys activity activities | grep -E 'mResumedActivity|topResumedActivity'",
  'dumpsys input_method | grep mInputShown=',
  "dumpsys window policy | grep -E 'mIsShowing=|mShowingLockscreen='",
  // Each input device's id and keyboard type, paired on the host (hardwareKeyboards), and the
  // display's rotation, which turns `wm size` into the size taps address (display-geometry.ts).
  "dumpsys input | grep -E '^ +Device -?[0-9]+: |^ +KeyboardType: |Viewport INTERNAL|SurfaceOrientation'",
  'wm size',
].join('; ');

/** A display size read after the last action stands for this long (a person may fold or set the phone). */
const SCREEN_SIZE_TRUST_MS = 10_000;

const UI_FIELDS: readonly TelemetryField[] = ['screenOn', 'foreground', 'keyboardShown', 'locked', 'hardwareKeyboard'];

/**
 * How many alphabetic keyboards are attached, from InputReader's `Device ID: NAME` and
 * `KeyboardType: T` lines (AOSP InputDevice::dump; T is 2, ALPHABETIC, for a full keyboard); undefined
 * when no device was listed (the read failed). The device of id -1 is not counted: it is the
 * system's own virtual keyboard, on every phone, which Android itself leaves out when it decides
 * whether a keyboard is present (InputDevice.isVirtual(): a negative id).
 */
export function hardwareKeyboards(output: string): number | undefined {
  let id: number | undefined;
  let listed = false;
  let count = 0;
  for (const line of output.split('\n')) {
    const device = /^\s+Device (-?\d+): /.exec(line);
    if (device) {
      id = Number(device[1]);
      listed = true;
      continue;
    }
    const type = /^\s+KeyboardType: (\S+)\s*$/.exec(line)?.[1];
    if (type !== undefined && id !== undefined && id >= 0 && (type === '2' || type === 'ALPHABETIC')) count++;
  }
  return listed ? count : undefined;
}

export function parseScreenState(serial: string, output: string, at: number): DeviceScreenState {
  const wake = /mWakefulness=(\w+)/.exec(output)?.[1];
  const resumed = /(?:mResumedActivity|topResumedActivity)[:=]\s*ActivityRecord\{\S+ u\d+ ([\w.]+\/[\w.$]+)/.exec(
    output,
  )?.[1];
  const shown = /mInputShown=(true|false)/.exec(output)?.[1];
  const keyguard = /(?:mIsShowing|mShowingLockscreen)=(true|false)/.exec(output)?.[1];
  const keyboards = hardwareKeyboards(output);
  return {
    serial,
    screenOn: wake === undefined ? undefined : wake === 'Awake',
    foreground: resumed,
    keyboardShown: shown === undefined ? undefined : shown === 'true',
    locked: keyguard === undefined ? undefined : keyguard === 'true',
    hardwareKeyboard: keyboards === undefined ? undefined : keyboards > 0,
    at,
  };
}

export class DeviceTelemetry {
  private readonly lastAction = new Map<string, number>();
  /** UI actions begun per device: a read begun before the latest one describes an older screen. */
  private readonly actions = new Map<string, number>();
  /** The screen-state read in flight per device, begun after its last action answered. */
  private readonly reading = new Map<string, Promise<void>>();
  /** The display size of each device's last state read, and after how many actions it was read. */
  private readonly screens = new Map<string, { width: number; height: number; at: number; action: number }>();

  constructor(
    readonly store: TelemetryStore,
    private readonly manager: DeviceManager,
    private readonly clock: Clock,
    private readonly settleMs = 750,
  ) {}

  /**
   * adb's list: a device is online, or offline; the writes keep the readings fresh. Other states
   * (unauthorized, authorizing, connecting) are not "offline": the tool says what they need.
   */
  recordDevices(devices: readonly TrackedDevice[], at: number): void {
    for (const d of devices) {
      const key = telemetryKey(d.serial, 'online');
      if (d.state === 'device' || d.state === 'offline') this.store.set(key, d.state === 'device', at);
      else this.store.delete(key);
    }
  }

  recordRemoved(serial: string, at: number): void {
    this.store.set(telemetryKey(serial, 'online'), false, at);
    this.invalidate(serial);
  }

  /** When a UI-changing action last started on the device (this telemetry's clock), if ever. */
  lastActionAt(serial: string): number | undefined {
    return this.lastAction.get(serial);
  }

  /** The clock the readings are stamped with. */
  now(): number {
    return this.clock.now();
  }

  /** Before a UI-changing action: the screen state is about to be unknown. */
  invalidate(serial: string): void {
    this.lastAction.set(serial, this.clock.now());
    this.actions.set(serial, (this.actions.get(serial) ?? 0) + 1);
    for (const field of UI_FIELDS) this.store.delete(telemetryKey(serial, field));
  }

  /**
   * The display size a state read found after the device's last action, if it is recent; undefined
   * when an action began since (it may have rotated or folded the screen) or none was read.
   */
  screenSize(serial: string): { width: number; height: number } | undefined {
    const known = this.screens.get(serial);
    if (!known || known.action !== (this.actions.get(serial) ?? 0)) return undefined;
    if (this.clock.now() - known.at > SCREEN_SIZE_TRUST_MS) return undefined;
    return { width: known.width, height: known.height };
  }

  /** The screen-state read in flight for a device (the environment gate waits for it); undefined when none. */
  pending(serial: string): Promise<void> | undefined {
    return this.reading.get(serial);
  }

  /**
   * Reads the screen state without holding anyone's answer: the gate of the next call waits for it
   * instead. Bounded by `timeoutMs`; a failed read leaves the readings unknown (fail open); a read
   * that a newer action overtook is dropped, since it shows the screen from before that action.
   */
  refreshSoon(serial: string, timeoutMs: number): void {
    const action = this.actions.get(serial) ?? 0;
    // The read starts in the event loop's next turn, once the answer that called this has been
    // written out: begun at once, the phone and this process would work on it while the answer is
    // on its way. The gate waits for it from now on all the same.
    const read: Promise<void> = new Promise((resolve) => setImmediate(resolve))
      .then(() => this.manager.shell(serial, STATE_COMMAND, { timeoutMs }))
      .then((result) => {
        if (result.exitCode !== null && (this.actions.get(serial) ?? 0) === action) this.record(serial, result.output);
      })
      .catch(() => undefined)
      .finally(() => {
        if (this.reading.get(serial) === read) this.reading.delete(serial);
      });
    this.reading.set(serial, read);
  }

  /** Reads the screen state from the device now and records what can be trusted. */
  async refresh(serial: string, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<DeviceScreenState> {
    const result = await this.manager.shell(serial, STATE_COMMAND, {
      timeoutMs: opts.timeoutMs ?? 10_000,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (result.exitCode === null)
      throw deviceToolError(new Error('Connection closed'), serial, 'reading the screen state');
    return this.record(serial, result.output);
  }

  /**
   * Records what the output of STATE_COMMAND says, as a refresh does: for a tool that ran the
   * command in the same shell line as its action (one round trip to the phone instead of two).
   */
  record(serial: string, output: string): DeviceScreenState {
    const at = this.clock.now();
    const state = parseScreenState(serial, output, at);
    const size = parseGeometry(output);
    if (size) this.screens.set(serial, { ...size, at, action: this.actions.get(serial) ?? 0 });
    else this.screens.delete(serial);
    this.write(serial, 'screenOn', state.screenOn, at);
    this.write(serial, 'foreground', state.foreground, at);
    this.write(serial, 'locked', state.locked, at);
    this.write(serial, 'hardwareKeyboard', state.hardwareKeyboard, at);
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
      locked: read('locked'),
      hardwareKeyboard: read('hardwareKeyboard'),
    };
  }

  private write(serial: string, field: TelemetryField, value: unknown, at: number): void {
    if (value === undefined) this.store.delete(telemetryKey(serial, field));
    else this.store.set(telemetryKey(serial, field), value, at);
  }
}
