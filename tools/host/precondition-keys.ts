/**
 * The telemetry keys the host has, as shortcut preconditions may name them: the device family's
 * readings per serial, the package derived from the foreground activity (host-telemetry.ts), and
 * the browser's readings. shortcut_define lists them in its schema and refuses other keys; the
 * Shortcuts page shows them with the keys that have a reading now.
 */
import { BROWSER_TELEMETRY_KEYS } from '../browser';
import { DEVICE_TELEMETRY_MEANINGS, type TelemetryField } from '../devices';
import { type PreconditionKey, keyPattern } from '../orchestration';

export const PRECONDITION_KEYS: readonly PreconditionKey[] = [
  ...(Object.entries(DEVICE_TELEMETRY_MEANINGS) as Array<[TelemetryField, string]>).map(([field, meaning]) => ({
    key: `device.<serial>.${field}`,
    meaning,
  })),
  {
    key: 'device.<serial>.foregroundPackage',
    meaning: 'the package of the resumed activity, e.g. "com.android.settings"',
  },
  ...Object.entries(BROWSER_TELEMETRY_KEYS).map(([key, meaning]) => ({ key, meaning })),
];

/** Each catalogue key with the keys that have a reading now (a device's serial filled in). */
export function keysWithReadings(present: readonly string[]): Array<PreconditionKey & { current: string[] }> {
  return PRECONDITION_KEYS.map((k) => {
    const pattern = keyPattern(k.key);
    return { ...k, current: present.filter((key) => pattern.test(key)) };
  });
}
