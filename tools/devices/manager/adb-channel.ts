/**
 * One service on one device through the adb server, with a deadline on every step.
 *
 * adbkit's DeviceClient.shell() waits forever and keeps its socket to itself, so a hung device
 * would hang the call. Here the shared adbkit client only opens the TCP connection to the adb
 * server; this module switches it to the device (`host:transport:SERIAL`), opens the service
 * (`shell:…`, `exec:…`, `sync:`) and keeps the socket, so a deadline or an abort destroys it in
 * whatever step it is. The host protocol is four hex digits of length and the request; the reply
 * is OKAY, or FAIL with a length-prefixed reason.
 */
import type { Duplex } from 'node:stream';
import type { Client } from '@devicefarmer/adbkit';
import type { Clock } from '../../core/pipeline/clock';
import { DeviceIoError, classifyAdbError } from './device-io-error';

export type AdbConnection = Awaited<ReturnType<Client['connection']>>;

export interface Deadline {
  /** Aborts when the deadline passes or the caller cancels; `reason` is the DeviceIoError to report. */
  readonly signal: AbortSignal;
  /** Clears the timer and the caller listener; call when the command is over. */
  dispose(): void;
}

/** A deadline of `timeoutMs` on `clock`, also ended by the caller's signal. */
export function startDeadline(
  clock: Clock,
  timeoutMs: number,
  serial: string,
  what: string,
  caller?: AbortSignal,
): Deadline {
  const controller = new AbortController();
  const onCaller = () => controller.abort(new DeviceIoError('aborted', `${what} was cancelled`, serial));
  const timer = clock.setTimeout(() => {
    controller.abort(
      new DeviceIoError('timeout', `${what} did not finish within ${formatSeconds(timeoutMs)} s`, serial),
    );
  }, timeoutMs);
  if (caller?.aborted) onCaller();
  else caller?.addEventListener('abort', onCaller, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      clock.clearTimeout(timer);
      caller?.removeEventListener('abort', onCaller);
    },
  };
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? String(ms / 1000) : (ms / 1000).toFixed(1);
}

export function encodeRequest(request: string): Buffer {
  const body = Buffer.from(request, 'utf8');
  return Buffer.concat([Buffer.from(body.length.toString(16).padStart(4, '0'), 'ascii'), body]);
}

/** The error a deadline's abort stands for: a timeout, or the caller's cancellation. */
export function abortError(signal: AbortSignal, serial: string, what: string): DeviceIoError {
  const reason: unknown = signal.reason;
  if (reason instanceof DeviceIoError) return reason;
  return new DeviceIoError('aborted', `${what} was cancelled`, serial);
}

/**
 * Races a promise against the deadline. A value that arrives after the deadline is handed to
 * `discard` (to close a connection nobody will use); a late rejection is swallowed.
 */
export function raceDeadline<T>(
  promise: PromiseLike<T>,
  signal: AbortSignal,
  onAbort: () => Error,
  discard?: (late: T) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const abort = () => {
      if (done) return;
      done = true;
      reject(onAbort());
    };
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        if (done) {
          discard?.(value);
          return;
        }
        done = true;
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (err: unknown) => {
        if (done) return;
        done = true;
        signal.removeEventListener('abort', abort);
        reject(err);
      },
    );
  });
}

function destroy(conn: AdbConnection): void {
  conn.socket?.destroy();
}

/** Sends one host request and waits for OKAY; FAIL rejects with the server's reason. */
async function request(conn: AdbConnection, text: string): Promise<void> {
  conn.write(encodeRequest(text));
  const reply = await conn.parser.readAscii(4);
  if (reply === 'OKAY') return;
  if (reply === 'FAIL') await conn.parser.readError();
  throw new DeviceIoError('failed', `unexpected adb reply '${reply}'`);
}

/**
 * Opens `service` on the device and returns the connection, now carrying the service's bytes
 * (`conn.parser.raw()` is the socket: destroying it ends the service). On any failure, or when
 * `signal` aborts first, the connection is closed before rejecting.
 */
export async function openDeviceConnection(
  client: Client,
  serial: string,
  service: string,
  signal: AbortSignal,
): Promise<AdbConnection> {
  const aborted = () => abortError(signal, serial, `'${service.slice(0, 60)}'`);
  let conn: AdbConnection;
  try {
    conn = await raceDeadline(client.connection(), signal, aborted, destroy);
  } catch (e) {
    throw classifyAdbError(e, serial);
  }
  const onAbort = () => destroy(conn);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await raceDeadline(request(conn, `host:transport:${serial}`), signal, aborted);
    await raceDeadline(request(conn, service), signal, aborted);
    return conn;
  } catch (e) {
    destroy(conn);
    throw classifyAdbError(e, serial);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

export interface Collected {
  data: Buffer;
  /** Reading stopped at `maxBytes`; the rest was not read. */
  truncated: boolean;
}

export interface CollectOptions {
  maxBytes: number;
  onChunk?: (chunk: Buffer) => void;
}

/**
 * Reads a service's stream to its end, at most `maxBytes` (then the stream is destroyed and the
 * result marked truncated). The deadline destroys the stream and rejects.
 */
export function collect(stream: Duplex, deadline: Deadline, serial: string, opts: CollectOptions): Promise<Collected> {
  return new Promise<Collected>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: Collected | Error) => {
      if (settled) return;
      settled = true;
      deadline.signal.removeEventListener('abort', onAbort);
      stream.removeListener('data', onData);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const done = (truncated: boolean) => {
      if (!settled) finish({ data: Buffer.concat(chunks, size), truncated });
    };
    const onAbort = () => {
      stream.destroy();
      finish(abortError(deadline.signal, serial, 'the command'));
    };
    const onData = (chunk: Buffer) => {
      const room = opts.maxBytes - size;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      if (part.length > 0) {
        chunks.push(part);
        size += part.length;
        opts.onChunk?.(part);
      }
      if (chunk.length > room) {
        stream.destroy();
        done(true);
      }
    };
    if (deadline.signal.aborted) return onAbort();
    deadline.signal.addEventListener('abort', onAbort, { once: true });
    stream.on('data', onData);
    // 'close' follows 'end': whichever comes first settles, and the output is joined once.
    stream.once('end', () => done(false));
    stream.once('close', () => done(false));
    stream.once('error', (err: Error) => finish(classifyAdbError(err, serial)));
  });
}
