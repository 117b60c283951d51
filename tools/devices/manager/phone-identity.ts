/**
 * Which transports are the same phone. With wireless debugging adb lists a phone under the mDNS
 * service it advertises (`adb-SERIALNO-xxxxxx._adb-tls-connect._tcp`) and, once connected by
 * address, under `IP:PORT` as well; a call without a serial then means that one phone, not "two
 * devices attached". A transport's phone is its `ro.serialno`: read from the mDNS name, or asked of
 * the phone.
 */
import type { TrackedDevice } from './device-tracker';

/** The serial number inside an mDNS transport name, or undefined for any other serial. */
export function mdnsSerialNumber(serial: string): string | undefined {
  return /^adb-([A-Za-z0-9]+)-[A-Za-z0-9]+\._adb(?:-tls-connect)?\._tcp\.?$/.exec(serial)?.[1];
}

export interface Phone {
  /** `ro.serialno`, or the transport's serial when unknown. */
  id: string;
  /** Its transports as adb lists them, usable ones first. */
  transports: TrackedDevice[];
}

/** Groups adb's transports by phone; `serialNumberOf` gives a transport's `ro.serialno` when known. */
export function groupByPhone(
  devices: readonly TrackedDevice[],
  serialNumberOf: (serial: string) => string | undefined,
): Phone[] {
  const phones = new Map<string, TrackedDevice[]>();
  for (const d of devices) {
    const id = mdnsSerialNumber(d.serial) ?? serialNumberOf(d.serial) ?? d.serial;
    phones.set(id, [...(phones.get(id) ?? []), d]);
  }
  return [...phones].map(([id, transports]) => ({
    id,
    // A usable transport first; between two usable ones, the address (it survives mDNS dropping out).
    transports: [...transports].sort(
      (a, b) =>
        Number(b.state === 'device') - Number(a.state === 'device') ||
        Number(mdnsSerialNumber(a.serial) !== undefined) - Number(mdnsSerialNumber(b.serial) !== undefined),
    ),
  }));
}
