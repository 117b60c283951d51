/**
 * The host's environment telemetry: the store the device family writes (`device.<serial>.*`), plus
 * readings computed when asked (the browser's `browser.*`, from the browser it drives, and
 * `device.<serial>.foregroundPackage`, the package part of the foreground activity). The
 * environment gate reads it, shortcut preconditions read it (fresh values only, as the gate does),
 * and a call's bug report keeps what it said when the call arrived.
 */
import { DEFAULT_TELEMETRY_MAX_AGE_MS, type TelemetryReading, TelemetryStore } from '../core/pipeline';
import type { Clock } from '../core/pipeline';
import { type Disposable, toDisposable } from '../core/disposable';

/** Readings computed on demand for a set of keys. */
export interface TelemetrySource {
  /** The keys this source can answer now. */
  keys(): string[];
  handles(key: string): boolean;
  read(key: string): TelemetryReading | undefined;
}

export interface TelemetryEntry {
  key: string;
  value: unknown;
  at: number;
}

const FOREGROUND_PACKAGE = /^device\.(.+)\.foregroundPackage$/;

export class HostTelemetry extends TelemetryStore {
  private readonly stored = new Set<string>();
  private readonly sources: TelemetrySource[] = [];

  constructor(private readonly hostClock: Clock) {
    super(hostClock);
    this.sources.push({
      keys: () =>
        [...this.stored].flatMap((k) => {
          const m = /^device\.(.+)\.foreground$/.exec(k);
          return m ? [`device.${m[1]}.foregroundPackage`] : [];
        }),
      handles: (key) => FOREGROUND_PACKAGE.test(key),
      read: (key) => {
        const serial = FOREGROUND_PACKAGE.exec(key)?.[1];
        const reading = serial === undefined ? undefined : super.read(`device.${serial}.foreground`);
        if (reading === undefined || typeof reading.value !== 'string') return undefined;
        return { value: reading.value.split('/')[0], at: reading.at };
      },
    });
  }

  override set(key: string, value: unknown, at?: number): void {
    super.set(key, value, at);
    this.stored.add(key);
  }

  override delete(key: string): void {
    super.delete(key);
    this.stored.delete(key);
  }

  override read(key: string): TelemetryReading | undefined {
    for (const source of this.sources) {
      if (!source.handles(key)) continue;
      try {
        return source.read(key);
      } catch {
        return undefined; // a source that cannot answer knows nothing: fail open
      }
    }
    return super.read(key);
  }

  addSource(source: TelemetrySource): Disposable {
    this.sources.push(source);
    return toDisposable(() => {
      const i = this.sources.indexOf(source);
      if (i >= 0) this.sources.splice(i, 1);
    });
  }

  /** The value of `key` when it is fresh; undefined when missing or older than `maxAgeMs` (unknown). */
  fresh(key: string, maxAgeMs = DEFAULT_TELEMETRY_MAX_AGE_MS): unknown {
    const reading = this.read(key);
    if (reading === undefined || this.hostClock.now() - reading.at > maxAgeMs) return undefined;
    return reading.value;
  }

  /** Every reading there is now, by key. */
  entries(): TelemetryEntry[] {
    const keys = new Set<string>(this.stored);
    for (const source of this.sources) {
      try {
        for (const k of source.keys()) keys.add(k);
      } catch {
        // a source that cannot list its keys adds none
      }
    }
    const out: TelemetryEntry[] = [];
    for (const key of [...keys].sort()) {
      const reading = this.read(key);
      if (reading !== undefined) out.push({ key, value: reading.value, at: reading.at });
    }
    return out;
  }
}
