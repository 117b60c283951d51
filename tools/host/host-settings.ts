/**
 * The person-editable settings (shared/contract.ts `Settings`), kept in SQLite. Every write is
 * validated key by key with the contract's schema, so a bad value is refused with its field and
 * nothing half-applied is stored. Families read them through getters, so settings that need no
 * restart apply at once.
 */
import { RESTART_REQUIRED_SETTINGS, Settings } from '../../shared/contract';
import { Emitter, type Disposable } from '../core/disposable';
import type { SettingsStore } from './store/settings-store';

const PREFIX = 'user.';

export class SettingsValidationError extends Error {
  constructor(
    readonly fields: string[],
    message: string,
  ) {
    super(message);
  }
}

export class HostSettings {
  private readonly changes = new Emitter<Settings>();
  /** Read on every span (the OTLP endpoint) and every call of some tools: cached, refreshed on update. */
  private cached: Settings | undefined;

  constructor(private readonly store: SettingsStore) {}

  current(): Settings {
    this.cached ??= this.read();
    return this.cached;
  }

  private read(): Settings {
    const raw: Record<string, unknown> = {};
    for (const key of Object.keys(Settings.shape)) {
      const value = this.store.get<unknown>(PREFIX + key);
      if (value !== undefined) raw[key] = value;
    }
    // A value stored by an older version that no longer validates falls back to its default.
    const parsed = Settings.safeParse(raw);
    if (parsed.success) return parsed.data;
    const valid: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(raw))
      if (Settings.safeParse({ [key]: value }).success) valid[key] = value;
    return valid as Settings;
  }

  get<K extends keyof Settings>(key: K): Settings[K] {
    return this.current()[key];
  }

  update(changes: Record<string, unknown>): Settings {
    const known = Object.keys(Settings.shape);
    const unknown = Object.keys(changes).filter((k) => !known.includes(k));
    if (unknown.length)
      throw new SettingsValidationError(
        unknown,
        `Unknown setting(s): ${unknown.join(', ')}. Known: ${known.join(', ')}.`,
      );
    const toSet = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== null));
    const parsed = Settings.safeParse(toSet);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => i.path.join('.'));
      throw new SettingsValidationError(
        fields,
        `Invalid settings: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    }
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) this.store.delete(PREFIX + key);
      else this.store.set(PREFIX + key, (parsed.data as Record<string, unknown>)[key]);
    }
    this.cached = undefined;
    const now = this.current();
    this.changes.emit(now);
    return now;
  }

  onChange(listener: (settings: Settings) => void): Disposable {
    return this.changes.on(listener);
  }

  static readonly restartRequired: readonly string[] = RESTART_REQUIRED_SETTINGS;
}
