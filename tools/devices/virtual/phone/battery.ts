/**
 * The battery as `dumpsys battery` reports it and as its shell commands change it. The commands
 * follow AOSP `BatteryService.Shell` (frameworks/base services/core/java/com/android/server/
 * BatteryService.java): `set [-f] ac|usb|wireless|status|level|temperature|present|counter|invalid
 * VALUE`, `unplug`, `reset`, each silent on success; any of them stops the real updates until
 * `reset`, which the dump states in the line "(UPDATES STOPPED -- use 'reset' to restart)". Seen on
 * an API 35 emulator: `dumpsys battery unplug` turns "USB powered" to false, `reset` restores it.
 */

/** What the charger and the cell report: the values a freshly booted phone on USB shows. */
export interface BatteryReading {
  ac: boolean;
  usb: boolean;
  wireless: boolean;
  status: number;
  level: number;
  temperature: number;
  present: boolean;
  counter: number;
  /** BatteryService's mInvalidCharger. */
  invalid: number;
}

const PLUGGED: BatteryReading = {
  ac: false,
  usb: true,
  wireless: false,
  // BatteryManager.BATTERY_STATUS_CHARGING
  status: 2,
  level: 87,
  temperature: 290,
  present: true,
  counter: 3_412_000,
  invalid: 0,
};

const FLAGS = new Set(['ac', 'usb', 'wireless', 'present']);
const NUMBERS = new Set(['status', 'level', 'temperature', 'counter', 'invalid']);

export class BatteryState {
  private reading: BatteryReading = { ...PLUGGED };
  /** A shell command overrode what the hardware reports (until `reset`). */
  updatesStopped = false;

  get now(): Readonly<BatteryReading> {
    return this.reading;
  }

  /**
   * Runs `dumpsys battery ARGS` when ARGS is one of the service's shell commands; returns what it
   * prints (an empty string on success), or undefined when ARGS asks for the dump.
   */
  command(args: readonly string[]): { out: string } | undefined {
    const [verb, ...rest] = args;
    if (verb === 'unplug') {
      this.reading = { ...this.reading, ac: false, usb: false, wireless: false };
      this.updatesStopped = true;
      return { out: '' };
    }
    if (verb === 'reset') {
      this.reading = { ...PLUGGED };
      this.updatesStopped = false;
      return { out: '' };
    }
    if (verb !== 'set') return undefined;
    const [key, value] = rest[0] === '-f' ? rest.slice(1) : rest;
    if (key === undefined || value === undefined) return { out: 'No value specified\n' };
    if (!FLAGS.has(key) && !NUMBERS.has(key)) return { out: `Unknown set option: ${key}\n` };
    const number = Number.parseInt(value, 10);
    if (!Number.isFinite(number)) return { out: `Bad value: ${value}\n` };
    this.reading = { ...this.reading, [key]: FLAGS.has(key) ? number !== 0 : number };
    this.updatesStopped = true;
    return { out: '' };
  }
}
