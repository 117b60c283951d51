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

export interface LaneResult {
  output: string;
  exitCode: number | null;
  truncated: boolean;
}

export interface LaneOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  maxBytes: number;
}

/** After a lane could not be opened, fresh streams only, for this long. */
const REOPEN_AFTER_MS = 30_000;
/** Opening a lane may take this long; a phone slower than that to open a stream gets fresh ones. */
const OPEN_TIMEOUT_MS = 5_000;
/** shell v2 packet ids (adb's shell_protocol.h). */
const STDIN = 0;
const STDOUT = 1;
const STDERR = 2;
const EXIT = 3;

function packet(id: number, data: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt8(id, 0);
  header.writeUInt32LE(data.length, 1);
  return Buffer.concat([header, data]);
}

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
  settle(result: LaneResult | Error): void;
}

class Lane {
  private stream: Duplex | undefined;
  private opening: Promise<Duplex> | undefined;
  private pending: Buffer = Buffer.alloc(0);
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
      stream.on('data', (chunk: Buffer) => this.receive(chunk));
      stream.once('close', () => this.close());
      stream.on('error', () => undefined);
      this.stream = stream;
      return stream;
    });
    return this.opening;
  }

  run(command: string, opts: LaneOptions, clock: Clock): Promise<LaneResult> {
    const marker = `__toolgate_lane_${this.nonce}_${++this.count}=`;
    const deadline = startDeadline(clock, opts.timeoutMs, this.serial, `\`${command.split(/\s/, 1)[0]}\``, opts.signal);
    return new Promise<LaneResult>((resolve, reject) => {
      const settle = (result: LaneResult | Error) => {
        if (this.waiter !== waiter) return;
        this.waiter = undefined;
        deadline.dispose();
        deadline.signal.removeEventListener('abort', onAbort);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const waiter: Waiter = { marker, maxBytes: opts.maxBytes, chunks: [], size: 0, settle };
      const onAbort = () => {
        settle(abortError(deadline.signal, this.serial, 'the command'));
        this.close();
      };
      this.waiter = waiter;
      if (deadline.signal.aborted) return onAbort();
      deadline.signal.addEventListener('abort', onAbort, { once: true });
      this.open(deadline.signal).then(
        (stream) => {
          if (this.waiter === waiter) stream.write(packet(STDIN, Buffer.from(laneLine(command, marker), 'utf8')));
        },
        (e: unknown) => settle(e instanceof Error ? e : new Error(String(e))),
      );
    });
  }

  /** Splits shell v2 packets; stdout and stderr go to the waiting command. */
  private receive(chunk: Buffer): void {
    this.pending = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    while (this.pending.length >= 5) {
      const length = this.pending.readUInt32LE(1);
      if (this.pending.length < 5 + length) return;
      const id = this.pending.readUInt8(0);
      const data = this.pending.subarray(5, 5 + length);
      this.pending = this.pending.subarray(5 + length);
      if (id === STDOUT || id === STDERR) this.output(data);
      else if (id === EXIT) this.close();
    }
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
    if (w.size > w.maxBytes + w.marker.length + 8) {
      const all = Buffer.concat(w.chunks, w.size);
      w.settle({ output: all.subarray(0, w.maxBytes).toString('utf8'), exitCode: null, truncated: true });
      this.close();
      return;
    }
    // The status line is the last thing the command's shell writes; look for it near the end.
    const all = w.chunks.length === 1 ? data : Buffer.concat(w.chunks, w.size);
    w.chunks = [all];
    const from = Math.max(0, all.length - data.length - w.marker.length - 8);
    const at = all.indexOf(w.marker, from, 'latin1');
    const status = at < 0 ? null : /^(\d+)\n/.exec(all.subarray(at + w.marker.length).toString('latin1'));
    if (!status) return this.nudge();
    const end = at + w.marker.length + status[0].length;
    w.settle({ output: all.subarray(0, at).toString('utf8'), exitCode: Number(status[1]), truncated: false });
    // Bytes after the status line come from something the command left running: start clean.
    if (end < all.length) this.close();
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
      if (this.waiter && this.stream && !this.closed) this.stream.write(packet(STDIN, Buffer.alloc(0)));
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
  async run(serial: string, command: string, opts: LaneOptions): Promise<LaneResult | undefined> {
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
