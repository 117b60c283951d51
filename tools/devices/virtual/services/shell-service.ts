/**
 * Shell-like services: `shell:CMD` (v1: stdout and stderr merged, raw bytes, no exit code — what
 * adbkit uses), `shell,v2,…:CMD` (the adb CLI: framed stdout/stderr/exit), `exec:CMD` (raw, like
 * v1) and `abb_exec:SERVICE\0ARG…` (no shell; `adb install` streams APKs this way).
 * The hang and unplug faults act here, after the line has been logged.
 */
import type { DeviceShell, ShellIO } from '../device-shell';
import { waitForAbort, type FaultSettings } from '../faults';
import { PushSource, type Output } from '../sh/io';
import type { DeviceStream } from '../stream';
import type { ServiceHandler } from '../transport-server';

export interface ShellServiceDeps {
  shell: DeviceShell;
  commandLog: string[];
  faults(): FaultSettings;
  /** Drops every connection (the unplug fault). */
  unplug(): void;
}

const V2_STDIN = 0;
const V2_STDOUT = 1;
const V2_STDERR = 2;
const V2_EXIT = 3;
const V2_CLOSE_STDIN = 4;

function frame(id: number, data: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt8(id, 0);
  header.writeUInt32LE(data.length, 1);
  return Buffer.concat([header, data]);
}

function toBuffer(data: Buffer | string): Buffer {
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
}

/** Host → device v2 packets: stdin data, close-stdin, window size (ignored). */
function feedV2(stream: DeviceStream, stdin: PushSource): void {
  let buffer = Buffer.alloc(0);
  stream.onData((chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    while (buffer.length >= 5) {
      const length = buffer.readUInt32LE(1);
      if (buffer.length < 5 + length) break;
      const id = buffer.readUInt8(0);
      const payload = buffer.subarray(5, 5 + length);
      buffer = buffer.subarray(5 + length);
      if (id === V2_STDIN) stdin.push(Buffer.from(payload));
      else if (id === V2_CLOSE_STDIN) stdin.end();
    }
  });
}

/** Applies the hang/unplug faults; returns true when the command must not run. */
async function faulted(deps: ShellServiceDeps, stream: DeviceStream): Promise<boolean> {
  const faults = deps.faults();
  if (faults.unplugMidCommand) {
    setImmediate(() => deps.unplug());
    await waitForAbort(stream.signal);
    return true;
  }
  if (faults.hang) {
    await waitForAbort(stream.signal);
    return true;
  }
  return false;
}

/** The framing helpers the interactive shell needs, per protocol. */
export const v2Framing = {
  out: (data: Buffer): Buffer => frame(V2_STDOUT, data),
  exit: (status: number): Buffer => frame(V2_EXIT, Buffer.from([status & 0xff])),
  input: (stream: DeviceStream, onInput: (data: Buffer) => void, onEnd: () => void): void => {
    const stdin = new PushSource();
    feedV2(stream, stdin);
    void (async () => {
      for (let chunk = await stdin.read(); chunk; chunk = await stdin.read()) onInput(chunk);
      onEnd();
    })();
    stream.signal.addEventListener('abort', () => stdin.end(), { once: true });
  },
};

export function shellService(deps: ShellServiceDeps, protocol: 'v1' | 'v2', line: string): ServiceHandler {
  return async (stream) => {
    deps.commandLog.push(line);
    if (await faulted(deps, stream)) return;
    const stdin = new PushSource();
    stream.signal.addEventListener('abort', () => stdin.end(), { once: true });
    let stdout: Output;
    let stderr: Output;
    if (protocol === 'v2') {
      feedV2(stream, stdin);
      stdout = { write: (d) => stream.write(frame(V2_STDOUT, toBuffer(d))) };
      stderr = { write: (d) => stream.write(frame(V2_STDERR, toBuffer(d))) };
    } else {
      stream.onData((chunk) => stdin.push(chunk));
      stdout = { write: (d) => stream.write(d) };
      stderr = stdout;
    }
    const io: ShellIO = { stdin, stdout, stderr, signal: stream.signal };
    let status: number;
    try {
      status = await deps.shell.run(line, io);
    } catch (err) {
      stderr.write(`/system/bin/sh: ${err instanceof Error ? err.message : String(err)}\n`);
      status = 1;
    }
    if (protocol === 'v2') stream.write(frame(V2_EXIT, Buffer.from([status & 0xff])));
    stream.end();
  };
}

export function abbExecService(deps: ShellServiceDeps, args: string[]): ServiceHandler {
  return async (stream) => {
    if (await faulted(deps, stream)) return;
    const stdin = new PushSource();
    stream.signal.addEventListener('abort', () => stdin.end(), { once: true });
    stream.onData((chunk) => stdin.push(chunk));
    const out: Output = { write: (d) => stream.write(d) };
    await deps.shell.exec(['cmd', ...args], { stdin, stdout: out, stderr: out, signal: stream.signal });
    stream.end();
  };
}
