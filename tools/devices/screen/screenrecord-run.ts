/**
 * One run of `screenrecord --output-format=h264 … -` on the phone over an adb `exec:` stream (raw
 * bytes: a `shell:` stream would pass through a pty on older phones and mangle them), cut into
 * access units as they arrive. A picture is handed on when the next one begins or, the stream
 * having paused for `idleFlushMs` (screenrecord writes each picture in one go), at once; the check
 * runs after Node has read whatever bytes are waiting, so a busy event loop does not cut a picture
 * in two. Text instead of video (a missing or refusing screenrecord) becomes the run's failure.
 */
import type { Duplex } from 'node:stream';
import type { DeviceManager } from '../manager/device-manager';
import { type AccessUnit, AnnexBSplitter } from './annexb';

export interface RecordParams {
  width: number;
  height: number;
  bitRate: number;
  timeLimitS: number;
}

export interface RunEnd {
  /** Pictures the run delivered. */
  units: number;
  /** What screenrecord printed instead of video, or why the stream could not be opened; '' when it ended cleanly. */
  message: string;
}

export interface RecordingRun {
  readonly params: RecordParams;
  /**
   * Bytes after a pause that belonged to a picture already handed on (pictures up to the next key frame may be
   * damaged).
   */
  readonly damaged: number;
  stop(): void;
}

export interface RunHandlers {
  onUnit(unit: AccessUnit): void;
  onEnd(end: RunEnd): void;
}

/** Text that is not video gives up the run after this many bytes (a usage message is ~1.5 KB). */
const MAX_PREAMBLE = 4096;

/** The command line; every value in it is a whole number this host chose, so no word needs quoting. */
export function screenrecordCommand(p: RecordParams): string {
  const n = (v: number) => String(Math.max(0, Math.round(v)));
  return (
    `screenrecord --output-format=h264 --size ${n(p.width)}x${n(p.height)} --bit-rate ${n(p.bitRate)} ` +
    `--time-limit ${n(p.timeLimitS)} -`
  );
}

/** The first line of what screenrecord said, without the shell's prefix. */
export function summarize(text: string): string {
  const line =
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  return line.replace(/^\/system\/bin\/sh: /, '').slice(0, 200);
}

export function startRecordingRun(
  manager: DeviceManager,
  serial: string,
  params: RecordParams,
  handlers: RunHandlers,
  opts: { idleFlushMs?: number; openTimeoutMs?: number } = {},
): RecordingRun {
  const idleFlushMs = opts.idleFlushMs ?? 6;
  const splitter = new AnnexBSplitter();
  const abort = new AbortController();
  let stream: Duplex | undefined;
  let units = 0;
  let ended = false;
  let lastData = 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;

  const deliver = (list: AccessUnit[]) => {
    for (const unit of list) {
      if (ended) return;
      units++;
      handlers.onUnit(unit);
    }
  };
  /** Ends the run; `why` is read after the last bytes were taken in (what screenrecord said may end there). */
  const finish = (why: () => string) => {
    if (ended) return;
    if (!abort.signal.aborted) deliver(splitter.flush());
    ended = true;
    clearTimeout(idleTimer);
    stream?.destroy();
    handlers.onEnd({ units, message: why() });
  };
  const said = () => (units === 0 ? summarize(splitter.preamble) : '');
  const armIdle = () => {
    clearTimeout(idleTimer);
    const armedAt = lastData;
    idleTimer = setTimeout(() => {
      // After the poll phase: bytes already waiting on the socket are read before the picture is cut.
      setImmediate(() => {
        if (!ended && lastData === armedAt && splitter.pending) deliver(splitter.flush());
      });
    }, idleFlushMs);
  };

  manager
    .openStream(serial, screenrecordCommand(params), {
      raw: true,
      signal: abort.signal,
      ...(opts.openTimeoutMs ? { timeoutMs: opts.openTimeoutMs } : {}),
    })
    .then(
      (opened) => {
        stream = opened;
        if (ended) return void opened.destroy();
        opened.on('data', (chunk: Buffer) => {
          if (ended) return;
          lastData++;
          deliver(splitter.push(chunk));
          if (units === 0 && splitter.preamble.length >= MAX_PREAMBLE) return finish(said);
          armIdle();
        });
        opened.once('end', () => finish(said));
        opened.once('close', () => finish(said));
        opened.once('error', (e: Error) => finish(() => (units === 0 ? said() || e.message : '')));
      },
      (e: unknown) => finish(() => (e as Error).message),
    );

  return {
    params,
    get damaged() {
      return splitter.damaged;
    },
    stop() {
      abort.abort();
      finish(() => '');
    },
  };
}
