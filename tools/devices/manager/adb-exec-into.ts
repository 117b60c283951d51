/**
 * An `exec:` service whose output is read into one buffer that is reused for every read, and
 * handed to a sink as it arrives, for outputs of megabytes that are consumed as they come (a raw
 * screen frame is 10 MB).
 *
 * Why not through adbkit's connection: a socket read in Node's flowing mode is a new 64 KB Buffer
 * every time, and V8 counts their memory towards its next full garbage collection. A screenshot's
 * 160 reads brought on a full collection of the host's heap after nearly every capture
 * (`--trace-gc`: 24 in 40 screenshots, 7–24 ms each, on the answer's path). A socket opened with
 * `onread` reads into the caller's buffer instead, and adbkit opens its sockets without it. The
 * host protocol is the one adb-channel.ts speaks: four hex digits of length and the request, then
 * OKAY, or FAIL with a length-prefixed reason.
 */
import { connect } from 'node:net';
import { DeviceIoError, classifyAdbError } from './device-io-error';
import { type Deadline, abortError, encodeRequest } from './adb-channel';

/** Takes an output's bytes as they arrive. */
export interface ByteSink {
  /** `bytes` is valid only during the call (its buffer is read into again); false: pause until `drained`. */
  write(bytes: Buffer): boolean;
  /** Settles when the sink that returned false can take bytes again. */
  drained(): Promise<void>;
}

export interface ExecIntoResult {
  /** Bytes handed to the sink. */
  size: number;
  /** Reading stopped at `maxBytes`; the rest was not read. */
  truncated: boolean;
}

const READ_BUFFER_BYTES = 64 * 1024;

type Phase = 'transport' | 'service' | 'output';

/**
 * Runs `exec:COMMAND` on the device through the adb server at `address`, handing its output to
 * `sink`, at most `maxBytes` of it. The deadline destroys the socket in whatever step it is and
 * rejects. Failures are the DeviceIoErrors adbkit's path reports for the same cause.
 */
export function execInto(
  address: { host: string; port: number },
  serial: string,
  command: string,
  sink: ByteSink,
  deadline: Deadline,
  maxBytes: number,
): Promise<ExecIntoResult> {
  return new Promise<ExecIntoResult>((resolve, reject) => {
    let phase: Phase = 'transport';
    /** Reply bytes of the current handshake step that have arrived (a step's reply may be split). */
    let reply = Buffer.alloc(0);
    let size = 0;
    let settled = false;
    const finish = (outcome: ExecIntoResult | Error) => {
      if (settled) return;
      settled = true;
      deadline.signal.removeEventListener('abort', onAbort);
      if (outcome instanceof Error) {
        socket.destroy();
        reject(outcome);
      } else resolve(outcome);
    };
    const onAbort = () => finish(abortError(deadline.signal, serial, 'the command'));

    /** Handshake bytes: OKAY moves on; FAIL's reason is the error. Returns the bytes after the reply. */
    const handshake = (bytes: Buffer): Buffer | undefined => {
      reply = Buffer.concat([reply, bytes]);
      if (reply.length < 4) return undefined;
      const status = reply.toString('ascii', 0, 4);
      if (status === 'FAIL') {
        if (reply.length < 8) return undefined;
        const length = Number.parseInt(reply.toString('ascii', 4, 8), 16);
        if (reply.length < 8 + length) return undefined;
        // adbkit's FailError words it so; classifyAdbError reads the adb server's reason from it.
        finish(classifyAdbError(new Error(`Failure: '${reply.toString('utf8', 8, 8 + length)}'`), serial));
        return undefined;
      }
      if (status !== 'OKAY') {
        finish(new DeviceIoError('failed', `unexpected adb reply '${status}'`, serial));
        return undefined;
      }
      const rest = reply.subarray(4);
      reply = Buffer.alloc(0);
      if (phase === 'transport') {
        phase = 'service';
        socket.write(encodeRequest(`exec:${command}`));
        return rest.length > 0 ? handshake(Buffer.from(rest)) : undefined;
      }
      phase = 'output';
      return rest;
    };

    /** Output bytes to the sink; false pauses the socket until the sink has drained. */
    const output = (bytes: Buffer): boolean => {
      if (bytes.length === 0) return true;
      const room = maxBytes - size;
      const part = bytes.length > room ? bytes.subarray(0, room) : bytes;
      size += part.length;
      const more = part.length > 0 ? sink.write(part) : true;
      if (bytes.length > room) {
        socket.destroy();
        finish({ size, truncated: true });
        return false;
      }
      if (more) return true;
      void sink.drained().then(() => {
        if (!settled) socket.resume();
      });
      return false;
    };

    const socket = connect({
      host: address.host,
      port: address.port,
      onread: {
        buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
        callback(nread: number, buffer: Uint8Array): boolean {
          if (settled) return false;
          const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, nread);
          if (phase === 'output') return output(bytes);
          const rest = handshake(Buffer.from(bytes));
          return rest === undefined || settled ? !settled : output(rest);
        },
      },
    });
    if (deadline.signal.aborted) return onAbort();
    deadline.signal.addEventListener('abort', onAbort, { once: true });
    socket.setNoDelay(true);
    socket.once('connect', () => socket.write(encodeRequest(`host:transport:${serial}`)));
    socket.on('error', (err: Error) => finish(classifyAdbError(err, serial)));
    // The service's end (or the phone going away) closes the socket; before the output began it is a failure.
    socket.once('close', () => {
      if (phase === 'output') finish({ size, truncated: false });
      else finish(classifyAdbError(new Error('Connection closed before the service answered'), serial));
    });
  });
}
