/**
 * Device failures as model-readable errors: the right code and a fix the model (or the person
 * watching) can act on — reconnect the cable, `adb connect`, accept the USB debugging prompt,
 * install adb. Every message names the device, since several may be attached. A phone adb lists
 * as unauthorized (PERMISSION_DENIED) or offline (UNSUPPORTED) waits for a person's step: neither
 * is retried nor counted by the circuit breaker, which would otherwise keep the phone refused after
 * it is back. A link that drops during a command stays EXECUTION_FAILED: that is the transient case.
 */
import { ToolCallError } from '../../core/result';
import { CANCELLED_HINT } from '../../core/pipeline/cancellation';
import { INSTALL_ADB_HINT } from './adb-server';
import { type DeviceIoError, classifyAdbError } from './device-io-error';
import type { TrackedDevice } from './device-tracker';

export function reconnectHint(serial: string): string {
  const network = /:\d+$/.test(serial);
  // adb 29 answers "already connected" to a bare `adb connect` while it still holds the offline
  // transport, so a network device needs the disconnect first (or adb's own reconnect, ~10 s).
  const how = network
    ? `run \`adb disconnect ${serial}\` then \`adb connect ${serial}\` ` +
      '(adb also reconnects by itself once the device listens again)'
    : 'reconnect the USB cable (or replug it)';
  return `The device dropped off adb: ${how}, make sure it is unlocked, then retry.`;
}

/**
 * What brings an offline phone back: a person's step (the cable, the phone's USB debugging) or one
 * on this computer (`adb reconnect offline` resets offline transports; a network phone needs a
 * fresh `adb connect`). Retrying the call first cannot help, so the hint says so.
 */
export function offlineHint(serial: string): string {
  const how = /:\d+$/.test(serial)
    ? `run \`adb disconnect ${serial}\` then \`adb connect ${serial}\` on this computer ` +
      '(adb also reconnects by itself once the phone listens again; after a restart of the phone wireless ' +
      'debugging may need pairing again)'
    : 'replug the USB cable or run `adb reconnect offline` on this computer, unlock the phone and check that ' +
      'Developer options > USB debugging is still on';
  return (
    `Ask the user to reconnect the phone: ${how}. ` +
    'Calls to it fail the same way until adb lists it as a device again.'
  );
}

export function listDevices(devices: readonly TrackedDevice[]): string {
  return devices.map((d) => `${d.serial} (${d.state}${d.model ? `, ${d.model}` : ''})`).join(', ');
}

export const NO_DEVICE_HINT =
  'Attach an Android phone by USB with USB debugging enabled, or run `adb connect HOST:PORT` for a network ' +
  'device, or start Toolgate with --virtual-device for the demo phone; then retry.';

/** The ToolCallError for a device I/O failure. `what` names the step, e.g. "`dumpsys window`". */
export function deviceToolError(e: unknown, serial: string, what = 'the command'): ToolCallError {
  const err: DeviceIoError = classifyAdbError(e, serial);
  const data = { serial, kind: err.kind, slug: `device-${err.kind}` };
  switch (err.kind) {
    case 'offline':
      // Not a failure of the tool: no retry or breaker count helps until a person (or adb) reconnects it.
      return new ToolCallError('UNSUPPORTED', `Device ${serial} is offline.`, {
        hint: offlineHint(serial),
        data: { ...data, state: 'offline', step: 'reconnect' },
      });
    case 'disconnected':
      return new ToolCallError('EXECUTION_FAILED', `The connection to device ${serial} was lost during ${what}.`, {
        hint: reconnectHint(serial),
        data,
      });
    case 'not-found':
      return new ToolCallError('NOT_FOUND', `Device ${serial} is not attached to adb.`, { hint: NO_DEVICE_HINT, data });
    case 'unauthorized':
      // Nothing the model can do makes this work: a person has to accept the phone's prompt.
      return new ToolCallError(
        'PERMISSION_DENIED',
        `Device ${serial} has not authorized this computer for USB debugging (adb lists it as unauthorized).`,
        {
          hint:
            "Ask the user to unlock the phone and accept the 'Allow USB debugging?' prompt, which shows this " +
            "computer's RSA key fingerprint (tick 'Always allow from this computer'); if no prompt shows, " +
            'Developer options > "Revoke USB debugging authorizations", then replug the cable' +
            `${/:\d+$/.test(serial) ? ` or run \`adb connect ${serial}\` again` : ''}. Retry once it is accepted.`,
          data: { ...data, state: 'unauthorized', step: 'allow-usb-debugging' },
        },
      );
    case 'timeout':
      return new ToolCallError('TIMEOUT', `Device ${serial} did not answer: ${err.message}.`, {
        hint:
          'The device may be busy, frozen or half-disconnected. Check its screen; if it dropped off, ' +
          `${reconnectHint(serial).charAt(0).toLowerCase()}${reconnectHint(serial).slice(1)}`,
        data,
      });
    case 'aborted':
      return new ToolCallError('EXECUTION_FAILED', `The command on ${serial} was cancelled.`, {
        hint: CANCELLED_HINT,
        data: { ...data, cancelled: true, slug: 'cancelled' },
      });
    case 'refused':
      return new ToolCallError('EXECUTION_FAILED', `Device ${serial} refused ${what} (${err.message}).`, {
        hint: 'The device may be restarting adbd; wait a few seconds and retry once.',
        data,
      });
    case 'adb-missing':
      return new ToolCallError('EXECUTION_FAILED', err.message, { hint: INSTALL_ADB_HINT, data });
    case 'server-unreachable':
      return new ToolCallError('EXECUTION_FAILED', `The adb server is not reachable: ${err.message}`, {
        hint:
          'Start it with `adb start-server` on this computer (or check the configured remote adb host:port), ' +
          'then retry.',
        data,
      });
    default:
      return new ToolCallError('EXECUTION_FAILED', `${what} failed on ${serial}: ${err.message}`, { data });
  }
}
