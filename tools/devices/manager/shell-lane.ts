/**
 * A persistent shell per phone for the host's own short commands (docs/architecture.md, "The
 * shell lane"). Each `adb shell CMD` makes the adb server open a stream to the phone and adbd start a
 * new `sh` for it; on a real phone that is several milliseconds before the command runs, and on
 * this machine's loopback about 0.9 ms of a 1.6 ms `input tap`. A lane is one `shell,v2,raw:`
 * session (no pty, so no echo and no CR LF) opened once, whose `sh` reads one command at a time:
 *
 *   (eval 'COMMAND') </dev/null 2>&1; echo __toolgate_lane_NONCE_N=$?
 *
 * - `eval` of the single-quoted text runs it exactly as `adb shell COMMAND` would (comments,
 *   newlines, here-documents and all), and a syntax error in it is the command's error, not the
 *   lane's;
 * - the subshell keeps `exit`, `cd` and variables from reaching the lane's shell or the next
 *   command; `</dev/null` keeps the command from reading the next one; `2>&1` merges the output
 *   as the `shell:` service does;
 * - the end of the command is the status line with this lane's random nonce and a counter, so no
 *   output can end it early or pass for the next command's.
 *
 * One command at a time: a call that finds the lane busy, or a phone without shell v2 (Android
 * before 7), gets `undefined` and uses a fresh `shell:` stream, as do commands whose output is
 * streamed (onChunk) and the model's own shell text (shell_execute), which may leave background
 * jobs behind. A deadline, a cancel, output past its limit, or anything after the status line
 * closes the lane (its shell ends with its stream); the next command opens a new one.
 */
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { Client } from '@devicefarmer/adbkit';
import type { Clock } from '../../core/pipeline/clock';
import { quote } from '../shell-words';
import { abortError, openDeviceConnection, startDeadline } from './adb-channel';
import type { ShellResult } from './device-manager';
import { V2, V2Reader, v2Packet } from './shell-v2';

export interface LaneOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  maxBytes: number;
}

/** After a lane could not be opened, fresh streams only, for this long. */
const REOPEN_AFTER_MS = 30_000;
/** Opening a lane may take this long; a phone slower than that to open a stream gets fresh ones. */
const OPEN_TIMEOUT_MS = 5_000;
/** Room after the marker for the status digits and the newline. */
const STATUS_DIGITS = 8;

/** The line the lane's shell reads for one command. */
export function laneLine(command: string, marker: string): string {
  return `(eval ${quote(command)}) </dev/null 2>&1; echo ${marker}$?\n`;
}

/** A lane line as the phone receives it (without its newline); group 1 is the quoted command. */
export const LANE_LINE = /^\(eval ('(?:[^']|'\\'')*')\) <\/dev\/null 2>&1; echo __toolgate_lane_[0-9a-f]+_\d+=\$\?$/s;

/** The command a lane line carries, or undefined when `line` is no lane line. */
export function laneCommand(line: string): string | undefined {
  const quoted = LANE_LINE.exec(line)?.[1];
  return quoted?.slice(1, -1).replace(/'\\''/g, "'");
}

interface Waiter {
  marker: string;
  maxBytes: number;
  chunks: Buffer[];
  size: number;
  /** The last bytes before the newest chunk, where a status line split across chunks begins. */
  tail: Buffer;
  settle(result: ShellResult | Error): void;
}

class Lane {
  private stream: Duplex | undefined;
  private opening: Promise<Duplex> | undefined;
  private waiter: Waiter | undefined;
  private count = 0;
  private nudging = false;
  private readonly nonce = randomBytes(6).toString('hex');
  busy = false;
  closed = false;

  constructor(
    private readonly client: Client,
    private readonly serial: string,
    private readonly onClose: () => void,
  ) {}

  /** Opens the session once; rejects when the phone or the adb server refuses it. */
  open(signal: AbortSignal): Promise<Duplex> {
    if (this.stream) return Promise.resolve(this.stream);
    this.opening ??= openDeviceConnection(this.client, this.serial, 'shell,v2,raw:', signal).then((conn) => {
      const stream = conn.parser.raw();
      const packets = new V2Reader((id, data) => this.receive(id, data));
      stream.on('data', (chunk: Buffer) => packets.push(chunk));
      stream.once('close', () => this.close());
      stream.on('error', () => undefined);
      this.stream = stream;
      return stream;
    });
    return this.opening;
  }

  run(command: string, opts: LaneOptions, clock: Clock): Promise<ShellResult> {
    const marker = `__toolgate_lane_${this.nonce}_${++this.count}=`;
    const deadline = startDeadline(clock, opts.timeoutMs, this.serial, `\`${command.split(/\s/, 1)[0]}\``, opts.signal);
    return new Promise<ShellResult>((resolve, reject) => {
      const settle = (result: ShellResult | Error) => {
        if (this.waiter !== waiter) return;
        this.waiter = undefined;
        deadline.dispose();
        deadline.signal.removeEventListener('abort', onAbort);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const waiter: Waiter = { marker, maxBytes: opts.maxBytes, chunks: [], size: 0, tail: Buffer.alloc(0), settle };
      const onAbort = () => {
        settle(abortError(deadline.signal, this.serial, 'the command'));
        this.close();
      };
      this.waiter = waiter;
      if (deadline.signal.aborted) return onAbort();
      deadline.signal.addEventListener('abort', onAbort, { once: true });
      this.open(deadline.signal).then(
        (stream) => {
          if (this.waiter === waiter) stream.write(v2Packet(V2.stdin, laneLine(command, marker)));
        },
        (e: unknown) => settle(e instanceof Error ? e : new Error(String(e))),
      );
    });
  }

  /** A shell v2 packet from the lane: stdout and stderr go to the waiting command. */
  private receive(id: number, data: Buffer): void {
    if (id === V2.stdout || id === V2.stderr) this.output(data);
    else if (id === V2.exit) this.close();
  }

  private output(data: Buffer): void {
    const w = this.waiter;
    if (!w) {
      // Output nobody asked for (a background job of an earlier command): this lane is not clean.
      this.close();
      return;
    }
    w.chunks.push(data);
    w.size += data.length;
    if (w.size > w.maxBytes + w.marker.length + STATUS_DIGITS) {
      const all = Buffer.concat(w.chunks, w.size);
      w.settle({ output: all.subarray(0, w.maxBytes).toString('utf8'), exitCode: null, truncated: true });
      this.close();
      return;
    }
    // The status line is the last thing the command's shell writes: look for it in this chunk and
    // the end of what came before (it may be split between them).
    const window = w.tail.length > 0 ? Buffer.concat([w.tail, data]) : data;
    const at = window.indexOf(w.marker, 0, 'latin1');
    const status = at < 0 ? null : /^(\d+)\n/.exec(window.subarray(at + w.marker.length).toString('latin1'));
    if (!status) {
      w.tail = window.subarray(Math.max(0, window.length - w.marker.length - STATUS_DIGITS));
      return this.nudge();
    }
    const start = w.size - window.length + at;
    const output = Buffer.concat(w.chunks, w.size).subarray(0, start).toString('utf8');
    w.settle({ output, exitCode: Number(status[1]), truncated: false });
    // Bytes after the status line come from something the command left running: start clean.
    if (at + w.marker.length + status[0].length < window.length) this.close();
  }

  /**
   * Sends an empty stdin packet (adbd writes nothing to the shell) after output that did not end
   * the command. Without it the rest waits ~40 ms: on a connection that stays open, the kernel
   * delays its ACK of what the adb server sent, and the adb server's socket (Nagle's algorithm on)
   * holds the next small write until that ACK. Sending anything carries the ACK at once; a new
   * connection per command never shows this, since a fresh TCP connection ACKs at once.
   */
  private nudge(): void {
    if (this.nudging) return;
    this.nudging = true;
    setImmediate(() => {
      this.nudging = false;
      if (this.waiter && this.stream && !this.closed) this.stream.write(v2Packet(V2.stdin, Buffer.alloc(0)));
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    const w = this.waiter;
    // A command cut off without its status line: its output so far, no status (as a dropped stream).
    if (w) w.settle({ output: Buffer.concat(w.chunks, w.size).toString('utf8'), exitCode: null, truncated: false });
    this.stream?.destroy();
    this.onClose();
  }
}

export class ShellLanes {
  private readonly lanes = new Map<string, Lane>();
  /** Serials whose lane could not be opened, and when to try again. */
  private readonly refused = new Map<string, number>();

  constructor(
    private readonly client: Client,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs `command` on the phone's lane; undefined when the lane cannot take it now (busy, or the
   * phone refused a lane), so the caller opens a stream of its own. Rejects only as a fresh stream
   * would: a deadline or a cancel.
   */
  async run(serial: string, command: string, opts: LaneOptions): Promise<ShellResult | undefined> {
    const retryAt = this.refused.get(serial);
    if (retryAt !== undefined && this.clock.now() < retryAt) return undefined;
    let lane = this.lanes.get(serial);
    if (lane?.busy) return undefined;
    if (!lane) {
      const made = new Lane(this.client, serial, () => {
        if (this.lanes.get(serial) === made) this.lanes.delete(serial);
      });
      lane = made;
      this.lanes.set(serial, lane);
      const limit = AbortSignal.timeout(Math.min(opts.timeoutMs, OPEN_TIMEOUT_MS));
      try {
        await lane.open(opts.signal ? AbortSignal.any([opts.signal, limit]) : limit);
      } catch {
        if (opts.signal?.aborted) throw abortError(opts.signal, serial, 'the command');
        lane.close();
        this.refused.set(serial, this.clock.now() + REOPEN_AFTER_MS);
        return undefined;
      }
      if (lane.busy) return undefined;
    }
    lane.busy = true;
    try {
      return await lane.run(command, opts, this.clock);
    } finally {
      lane.busy = false;
    }
  }

  /** Closes a phone's lane (it went offline or away), or every lane. */
  drop(serial?: string): void {
    for (const [s, lane] of [...this.lanes]) {
      if (serial !== undefined && s !== serial) continue;
      lane.close();
      this.lanes.delete(s);
      this.refused.delete(s);
    }
  }
}
