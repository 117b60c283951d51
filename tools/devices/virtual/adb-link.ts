/**
 * Attaching a virtual device to the real adb server and detaching it, without racing adb.
 *
 * adb (29) deletes a TCP transport asynchronously. When the transport is offline, `adb disconnect`
 * only marks it kicked and returns; adb's reconnect thread deletes it afterwards. An `adb connect`
 * that gets in first answers "already connected to SERIAL" (exit status 0), and a moment later the
 * serial is gone, with no transport left that adb would ever reconnect. A kick that lands while
 * that thread is reconnecting leaves a kicked transport alive instead, which adb deletes (rather
 * than reconnects) at its next connection loss. So detaching holds the device's cable out, leaving
 * adb nothing to reattach, and waits until adb no longer lists the serial. Connecting accepts only
 * adb's "connected to".
 */
import { adbState, DEFAULT_ADB, runAdb, waitForAdbState } from './adb-cli';

const CONNECT_ATTEMPTS = 3;

/** What linking needs of a virtual device (VirtualDevice has it): its serial, and a way to keep its cable out. */
export interface LinkableDevice {
  readonly serial: string;
  holdUnplugged(): () => void;
}

/**
 * Makes adb list the device as `device` through `adb connect`. A transport adb still lists in
 * another state (offline after an unplug, unauthorized) is detached first, since `adb connect` would
 * only answer "already connected". Throws when adb reports a failure ("failed to authenticate"
 * under the unauthorized fault, "failed to connect" when the device refuses connections).
 */
export async function connectToAdb(device: LinkableDevice, adbPath = DEFAULT_ADB): Promise<void> {
  const { serial } = device;
  let answer = '';
  for (let attempt = 0; attempt < CONNECT_ATTEMPTS; attempt++) {
    const state = await adbState(serial, adbPath);
    if (state === 'device') return;
    if (state !== null) await disconnectFromAdb(device, adbPath);
    answer = (await runAdb(['connect', serial], adbPath)).trim();
    // Another client attached the serial between our look and our connect: look again.
    if (/^already connected to /m.test(answer)) continue;
    if (!/^connected to /m.test(answer)) throw new Error(`adb connect ${serial}: ${answer}`);
    await waitForAdbState(serial, 'device', adbPath);
    return;
  }
  throw new Error(
    `adb connect ${serial}: '${answer}' after ${CONNECT_ATTEMPTS} attempts, and adb does not list it as a device`,
  );
}

/**
 * `adb disconnect SERIAL`. Given the device itself, it also keeps the device's cable out meanwhile
 * and waits until adb no longer lists the serial, so no part of the transport can come back (or
 * linger and attach itself to a later device that reuses the port).
 */
export async function disconnectFromAdb(target: LinkableDevice | string, adbPath = DEFAULT_ADB): Promise<void> {
  if (typeof target === 'string') {
    await runAdb(['disconnect', target], adbPath).catch(() => undefined);
    return;
  }
  const release = target.holdUnplugged();
  try {
    // Fails with "no such device" when adb has already forgotten it: fine, that is the goal.
    await runAdb(['disconnect', target.serial], adbPath).catch(() => undefined);
    await waitForAdbState(target.serial, null, adbPath);
  } finally {
    release();
  }
}
