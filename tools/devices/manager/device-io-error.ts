/**
 * Typed failures of talking to a device, before they become model-readable results. The kind
 * says what went wrong in adb's terms; `toToolError` (device-errors.ts) turns it into a code and
 * a fix the model can act on.
 */
export type DeviceIoKind =
  /** The command did not finish before its deadline. */
  | 'timeout'
  /** The caller cancelled the call. */
  | 'aborted'
  /** adb lists the device as offline (cable out, network device dropped). */
  | 'offline'
  /** The adb server does not know the serial. */
  | 'not-found'
  /** The phone has not accepted this computer's RSA key. */
  | 'unauthorized'
  /** The connection to the device ended in the middle of the command. */
  | 'disconnected'
  /** The device refused the service. */
  | 'refused'
  /** The adb server does not answer on host:port and could not be started. */
  | 'server-unreachable'
  /** The `adb` program is not installed. */
  | 'adb-missing'
  /** Anything else adb reported. */
  | 'failed';

export class DeviceIoError extends Error {
  override readonly name = 'DeviceIoError';
  constructor(
    readonly kind: DeviceIoKind,
    message: string,
    readonly serial?: string,
  ) {
    super(message);
  }
}

export function isDeviceIoError(e: unknown): e is DeviceIoError {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'DeviceIoError' && 'kind' in e;
}

/** Classifies what adbkit or the socket threw (FailError texts are the adb server's own words). */
export function classifyAdbError(e: unknown, serial?: string): DeviceIoError {
  if (isDeviceIoError(e)) return e;
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT' && /spawn/.test(message)) return new DeviceIoError('adb-missing', message, serial);
  if (code === 'ECONNREFUSED') return new DeviceIoError('server-unreachable', message, serial);
  if (/device offline/i.test(message)) return new DeviceIoError('offline', message, serial);
  if (/unauthorized/i.test(message)) return new DeviceIoError('unauthorized', message, serial);
  if (/not found|no devices|no emulators/i.test(message)) return new DeviceIoError('not-found', message, serial);
  if (/'closed'|Failure: 'closed'/.test(message)) return new DeviceIoError('refused', message, serial);
  if (
    /premature|ECONNRESET|EPIPE|socket|Connection closed/i.test(message) ||
    code === 'ECONNRESET' ||
    code === 'EPIPE'
  ) {
    return new DeviceIoError('disconnected', message, serial);
  }
  return new DeviceIoError('failed', message, serial);
}
