/**
 * The device manager: ONE adbkit client for the host (a remote adb server is just another
 * host:port), the adb server started when absent, devices tracked, the serial a call means
 * resolved, and every command bounded by a deadline that destroys its socket (adbkit would wait
 * forever). Shell commands get their exit status from a marker line appended to the command,
 * since adbkit's shell protocol (v1) carries none; a missing marker means the stream was cut.
 * A short command the host wrote runs on the phone's shell lane when it is free (shell-lane.ts:
 * one persistent shell, no stream to open per command), with the same result.
 */
import { createReadStream } from 'node:fs';
import type { Duplex } from 'node:stream';
import { Adb, type Client } from '@devicefarmer/adbkit';
import Connection from '@devicefarmer/adbkit/dist/src/adb/connection';
import Sync from '@devicefarmer/adbkit/dist/src/adb/sync';
import { ToolCallError } from '../../core/result';
import { type Clock, systemClock } from '../../core/pipeline/clock';
import { type AdbConnection, type Collected, collect, openDeviceConnection, startDeadline } from './adb-channel';
import { type ByteSink, type ExecIntoResult, execInto } from './adb-exec-into';
import { LOCAL_HOSTS, ensureAdbServer } from './adb-server';
import { NO_DEVICE_HINT, deviceToolError, listDevices, reconnectHint } from './device-errors';
import { DeviceIoError, isDeviceIoError } from './device-io-error';
import { DeviceTracker, type TrackedDevice } from './device-tracker';
import { groupByPhone, mdnsSerialNumber, type Phone } from './phone-identity';
import { ShellLanes } from './shell-lane';

export interface DeviceManagerOptions {
  /** Where the adb server listens; another machine's server works the same (default 127.0.0.1:5037). */
  adbHost?: string;
  adbPort?: number;
  /** The adb program, to start a local server (default `adb` on PATH). */
  adbPath?: string;
  /** Deadline of one device command unless the call gives its own (default 20 s). */
  commandTimeoutMs?: number;
  /** Interval of the state check that catches devices going offline without an event (default 2 s). */
  stateCheckMs?: number;
  clock?: Clock;
}

export interface CommandOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Output beyond this is not read (default 1 MiB). */
  maxBytes?: number;
  onChunk?: (chunk: Buffer) => void;
  /**
   * Run on a stream of its own, never the phone's shell lane (shell-lane.ts): for text the host did
   * not write (shell_execute), which may leave jobs running. Streamed output (onChunk) always is.
   */
  ownStream?: boolean;
}

export interface ShellResult {
  /** stdout and stderr as the device merged them, without the exit marker. */
  output: string;
  /** null when the output ended without the marker (truncated, the shell exited, or the link dropped). */
  exitCode: number | null;
  truncated: boolean;
}

const EXIT_MARKER = '__toolgate_exit=';
const EXIT_TAIL = new RegExp(`${EXIT_MARKER}(\\d+)\\r?\\n?$`);
const DEFAULT_MAX_BYTES = 1024 * 1024;

/** How an error names a command: its first word, in backquotes. */
function commandLabel(command: string): string {
  return `\`${command.split(/\s/, 1)[0] ?? command}\``;
}

/**
 * adbkit answers a refused connection by running `adb -P PORT start-server` on this machine, even
 * when the server it wants is on another host; for a remote server that would start a stray local
 * one. Its connections carry a "tried starting" flag (private in the typings), set here up front.
 */
function withoutLocalAutostart(client: Client): Client['connection'] {
  return () => {
    const connection = new Connection(client.options);
    Object.assign(connection, { triedStarting: true });
    connection.on('error', (err: Error) => client.emit('error', err));
    return connection.connect();
  };
}

export class DeviceManager {
  readonly client: Client;
  readonly tracker: DeviceTracker;
  readonly address: { host: string; port: number; adbPath: string };
  readonly commandTimeoutMs: number;
  private readonly clock: Clock;
  private started: Promise<void> | undefined;
  /** `ro.serialno` per transport serial, to tell the same phone reached two ways. */
  private readonly serialNumbers = new Map<string, string>();
  /** Each phone's persistent shell for short commands. */
  private readonly lanes: ShellLanes;

  constructor(opts: DeviceManagerOptions = {}) {
    this.address = { host: opts.adbHost ?? '127.0.0.1', port: opts.adbPort ?? 5037, adbPath: opts.adbPath ?? 'adb' };
    this.clock = opts.clock ?? systemClock;
    this.commandTimeoutMs = opts.commandTimeoutMs ?? 20_000;
    this.client = Adb.createClient({ host: this.address.host, port: this.address.port, bin: this.address.adbPath });
    // adbkit re-emits socket errors on the client; unhandled they would crash the process.
    this.client.on('error', () => undefined);
    if (!LOCAL_HOSTS.has(this.address.host)) this.client.connection = withoutLocalAutostart(this.client);
    this.tracker = new DeviceTracker(this.client, this.clock, {
      checkIntervalMs: opts.stateCheckMs ?? 2_000,
      timeoutMs: Math.min(this.commandTimeoutMs, 10_000),
    });
    this.lanes = new ShellLanes(this.client, this.clock);
    // A serial that went away may come back as another phone (a reused port).
    this.tracker.onChange((c) => {
      if (c.to === 'removed') this.serialNumbers.delete(c.serial);
      if (c.to !== 'device') this.lanes.drop(c.serial);
    });
  }

  /** Remembers a transport's `ro.serialno` (the device service reads it with the model). */
  setSerialNumber(serial: string, serialNumber: string): void {
    if (serialNumber) this.serialNumbers.set(serial, serialNumber);
  }

  /** adb's transports grouped by phone (an mDNS name and an IP:PORT of one phone are one). */
  phones(devices: readonly TrackedDevice[] = this.tracker.list()): Phone[] {
    return groupByPhone(devices, (serial) => this.serialNumbers.get(serial));
  }

  /** Asks each usable transport whose phone is not known yet for its `ro.serialno`. */
  private async identify(devices: readonly TrackedDevice[]): Promise<void> {
    const unknown = devices.filter(
      (d) => d.state === 'device' && !this.serialNumbers.has(d.serial) && !mdnsSerialNumber(d.serial),
    );
    await Promise.all(
      unknown.map(async (d) => {
        const r = await this.shell(d.serial, 'getprop ro.serialno', { timeoutMs: 5_000 }).catch(() => undefined);
        const value = r?.exitCode === 0 ? r.output.trim() : '';
        if (value) this.serialNumbers.set(d.serial, value);
      }),
    );
  }

  /** Starts the adb server if needed and begins tracking; shared by every caller, retried after a failure. */
  start(): Promise<void> {
    this.started ??= (async () => {
      await ensureAdbServer(this.client, this.address, this.clock);
      await this.tracker.start();
    })().catch((e: unknown) => {
      this.started = undefined;
      throw e;
    });
    return this.started;
  }

  devices(): TrackedDevice[] {
    return this.tracker.list();
  }

  /**
   * The serial a call targets: the one given, or the only device attached. Throws a model-readable
   * ToolCallError when there is none, several without a choice, or the device is not usable.
   */
  async resolveSerial(serial?: string): Promise<string> {
    try {
      await this.start();
    } catch (e) {
      throw deviceToolError(e, serial ?? '(none)', 'starting adb');
    }
    let devices = this.tracker.list();
    const pick = async (list: TrackedDevice[]) => {
      if (serial !== undefined) return list.find((d) => d.serial === serial);
      if (list.length === 1) return list[0];
      if (list.length > 1) await this.identify(list);
      const phones = this.phones(list);
      return phones.length === 1 ? phones[0]?.transports[0] : undefined;
    };
    let target = await pick(devices);
    if (target?.state !== 'device') {
      devices = await this.tracker.check().catch(() => devices);
      target = await pick(devices);
    }
    if (serial === undefined && devices.length === 0)
      throw new ToolCallError('NOT_FOUND', 'No Android device is attached.', {
        hint: NO_DEVICE_HINT,
        data: { serials: [] },
      });
    const phones = this.phones(devices);
    if (serial === undefined && phones.length > 1) {
      const listed = phones.map((p) => listDevices(p.transports)).join('; ');
      throw new ToolCallError(
        'INVALID_ARGUMENT',
        `${phones.length} devices are attached; pass \`serial\` to choose one: ${listed}.`,
        {
          hint: 'Retry with the serial of the device you mean.',
          data: { fields: ['serial'], serials: devices.map((d) => d.serial) },
        },
      );
    }
    if (!target) {
      const attached = devices.length > 0 ? ` Attached: ${listDevices(devices)}.` : ' No device is attached.';
      throw new ToolCallError('NOT_FOUND', `Device '${serial}' is not attached.${attached}`, {
        hint: devices.length > 0 ? 'Use one of the attached serials, or connect that device first.' : NO_DEVICE_HINT,
        data: { fields: ['serial'], serials: devices.map((d) => d.serial) },
      });
    }
    if (target.state === 'device') return target.serial;
    if (target.state === 'offline' || target.state === 'unauthorized')
      throw deviceToolError(new DeviceIoError(target.state, target.state, target.serial), target.serial);
    throw new ToolCallError('EXECUTION_FAILED', `Device ${target.serial} is not ready (adb state '${target.state}').`, {
      hint: `Wait a few seconds for it to finish connecting. ${reconnectHint(target.serial)}`,
      data: { serial: target.serial, state: target.state, slug: `device-${target.state}` },
    });
  }

  /** Runs a command line in the device shell; the line must already be quoted (see shell-words.ts). */
  async shell(serial: string, command: string, opts: CommandOptions = {}): Promise<ShellResult> {
    if (!opts.onChunk && !opts.ownStream) {
      const laneOpts = {
        timeoutMs: opts.timeoutMs ?? this.commandTimeoutMs,
        maxBytes: opts.maxBytes ?? DEFAULT_MAX_BYTES,
        ...(opts.signal ? { signal: opts.signal } : {}),
      };
      let laned: ShellResult | undefined;
      try {
        laned = await this.lanes.run(serial, command, laneOpts);
      } catch (e) {
        throw await this.failure(e, serial, commandLabel(command));
      }
      if (laned) return laned;
    }
    const collected = await this.run(serial, `shell:${command}\necho ${EXIT_MARKER}$?`, opts, command);
    const text = collected.data.toString('utf8');
    const match = collected.truncated ? null : EXIT_TAIL.exec(text);
    if (match) return { output: text.slice(0, match.index), exitCode: Number(match[1]), truncated: false };
    return { output: text, exitCode: null, truncated: collected.truncated };
  }

  /** Runs a command without a shell's line translation (`exec:`), for binary output such as PNGs. */
  exec(serial: string, command: string, opts: CommandOptions = {}): Promise<Collected> {
    return this.run(serial, `exec:${command}`, opts, command);
  }

  /**
   * As `exec`, handing the output to `sink` as it arrives, read into one reused buffer
   * (adb-exec-into.ts: a raw screen frame is 10 MB that need not be allocated).
   */
  async execInto(serial: string, command: string, sink: ByteSink, opts: CommandOptions = {}): Promise<ExecIntoResult> {
    const label = commandLabel(command);
    const deadline = startDeadline(this.clock, opts.timeoutMs ?? this.commandTimeoutMs, serial, label, opts.signal);
    const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    try {
      try {
        return await execInto(this.address, serial, command, sink, deadline, maxBytes);
      } catch (e) {
        // adbkit's connections start a local adb server that is not running; this one starts it too.
        if (!isDeviceIoError(e) || e.kind !== 'server-unreachable') throw e;
        await ensureAdbServer(this.client, this.address, this.clock);
        return await execInto(this.address, serial, command, sink, deadline, maxBytes);
      }
    } catch (e) {
      throw await this.failure(e, serial, label);
    } finally {
      deadline.dispose();
    }
  }

  /**
   * Opens a long-running command (logcat follow, screenrecord); only the opening has a deadline.
   * `raw` runs it over `exec:`, whose bytes no pty translates. The caller destroys the stream.
   */
  async openStream(
    serial: string,
    command: string,
    opts: { timeoutMs?: number; signal?: AbortSignal; raw?: boolean } = {},
  ): Promise<Duplex> {
    const conn = await this.connect(serial, `${opts.raw ? 'exec' : 'shell'}:${command}`, opts, command);
    return conn.parser.raw();
  }

  /** Pushes a host file with the sync protocol, reporting bytes sent. */
  async push(
    serial: string,
    localPath: string,
    remotePath: string,
    opts: CommandOptions & { onProgress?: (bytes: number) => void } = {},
  ): Promise<void> {
    const what = `pushing to ${remotePath}`;
    const conn = await this.connect(serial, 'sync:', opts, what);
    const deadline = startDeadline(this.clock, opts.timeoutMs ?? this.commandTimeoutMs, serial, what, opts.signal);
    try {
      await new Promise<void>((resolve, reject) => {
        const sync = new Sync(conn);
        const transfer = sync.pushStream(createReadStream(localPath), remotePath, 0o644);
        let failed = false;
        const onAbort = () => {
          failed = true;
          transfer.cancel();
          conn.socket.destroy();
          reject(
            deadline.signal.reason instanceof Error
              ? deadline.signal.reason
              : new DeviceIoError('aborted', `${what} was cancelled`, serial),
          );
        };
        deadline.signal.addEventListener('abort', onAbort, { once: true });
        transfer.on('progress', (stats: { bytesTransferred: number }) => opts.onProgress?.(stats.bytesTransferred));
        transfer.on('error', (err: Error) => {
          failed = true;
          reject(err);
        });
        transfer.on('end', () => {
          deadline.signal.removeEventListener('abort', onAbort);
          sync.end();
          if (!failed) resolve();
        });
      });
    } catch (e) {
      conn.socket.destroy();
      throw await this.failure(e, serial, what);
    } finally {
      deadline.dispose();
    }
  }

  async close(): Promise<void> {
    this.lanes.drop();
    this.tracker.close();
  }

  private async run(serial: string, service: string, opts: CommandOptions, what: string): Promise<Collected> {
    const label = commandLabel(what);
    const deadline = startDeadline(this.clock, opts.timeoutMs ?? this.commandTimeoutMs, serial, label, opts.signal);
    try {
      const conn = await openDeviceConnection(this.client, serial, service, deadline.signal);
      return await collect(conn.parser.raw(), deadline, serial, {
        maxBytes: opts.maxBytes ?? DEFAULT_MAX_BYTES,
        ...(opts.onChunk ? { onChunk: opts.onChunk } : {}),
      });
    } catch (e) {
      throw await this.failure(e, serial, label);
    } finally {
      deadline.dispose();
    }
  }

  private async connect(
    serial: string,
    service: string,
    opts: { timeoutMs?: number; signal?: AbortSignal },
    what: string,
  ): Promise<AdbConnection> {
    const deadline = startDeadline(this.clock, opts.timeoutMs ?? this.commandTimeoutMs, serial, what, opts.signal);
    try {
      return await openDeviceConnection(this.client, serial, service, deadline.signal);
    } catch (e) {
      throw await this.failure(e, serial, what);
    } finally {
      deadline.dispose();
    }
  }

  /** The error to report; a link failure also triggers a state check so the next call sees `offline` at once. */
  private async failure(e: unknown, serial: string, what: string): Promise<ToolCallError> {
    if (e instanceof ToolCallError) return e;
    const kind = isDeviceIoError(e) ? e.kind : undefined;
    if (kind !== 'aborted') await this.tracker.check().catch(() => undefined);
    return deviceToolError(e, serial, what);
  }
}
