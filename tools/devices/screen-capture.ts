/**
 * One screen capture as a PNG, two ways. `png`: the device encodes (`screencap -p`); cheap on the
 * link, but a phone's (and the virtual device's) PNG encoder is slow. `raw`: the device sends its
 * RGBA pixels (`screencap`) and this host encodes them (png.ts: level-1 deflate on the thread
 * pool). Which is faster depends on the phone and the link; the screen stream measures both.
 */
import { MULTI_DISPLAY_WARNING, splitCaptureText } from './displays';
import type { DeviceManager } from './manager/device-manager';
import { ByteChunks } from './byte-chunks';
import { PNG_SIGNATURE, encodeRgbaPngFrom, pngSize } from './png';

export type CaptureFormat = 'png' | 'raw';

/**
 * Which way of capturing is faster on one phone and link: the first captures alternate between
 * the formats, `trials` each, then the faster (by its quickest capture, encoding included) is kept.
 * A phone whose raw frame this host cannot read (a pixel format other than RGBA/RGBX) keeps `png`.
 */
export class CaptureChoice {
  private readonly times: Record<CaptureFormat, number[]> = { png: [], raw: [] };
  private chosen: CaptureFormat | undefined;

  constructor(
    fixed?: CaptureFormat,
    private readonly trials = 2,
  ) {
    this.chosen = fixed;
  }

  /** The format chosen, if the trials are over (or it was fixed). */
  get decided(): CaptureFormat | undefined {
    return this.chosen;
  }

  next(): CaptureFormat {
    if (this.chosen) return this.chosen;
    if (this.times.png.length >= this.trials && this.times.raw.length >= this.trials) {
      this.chosen = Math.min(...this.times.raw) < Math.min(...this.times.png) ? 'raw' : 'png';
      return this.chosen;
    }
    return this.times.png.length <= this.times.raw.length ? 'png' : 'raw';
  }

  /** How long a capture in `format` took, while trials run. */
  record(format: CaptureFormat, ms: number): void {
    if (!this.chosen) this.times[format].push(ms);
  }

  /** `format` gave no usable frame: a raw failure settles on png; false when there is nothing else. */
  unusable(format: CaptureFormat): boolean {
    if (format !== 'raw' || this.chosen === 'raw') return false;
    this.chosen ??= 'png';
    return true;
  }
}

export interface Capture {
  png: Buffer;
  width: number;
  height: number;
  /** screencap warned that the phone has several displays and took the first (no `-d` was given). */
  multiDisplay: boolean;
}

/** Bytes of text a raw frame may follow, at most, and then its largest header. */
const RAW_HEAD_BYTES = 4096 + 16;

export interface RawLayout {
  width: number;
  height: number;
  /** 1 RGBA_8888, 2 RGBX_8888. */
  format: number;
  /** Where the header starts: after the text before the frame, if any. */
  start: number;
  /** Where the pixels start. */
  offset: number;
}

/**
 * A raw `screencap` frame is width, height, pixel format, (dataspace since Android 8,) pixels; lines
 * of text may come before it (a multi-display warning).
 * Where a raw frame's pixels start, read from the output's first RAW_HEAD_BYTES (`head`) and its
 * whole length: a header whose size agrees with what follows, at the start or after a line of text.
 */
function rawFrameLayout(head: Buffer, total: number): RawLayout | undefined {
  const direct = layoutAt(head, 0, total);
  if (direct) return direct;
  for (let at = head.indexOf(0x0a); at >= 0 && at < 4096; at = head.indexOf(0x0a, at + 1)) {
    const layout = layoutAt(head, at + 1, total);
    if (layout) return layout;
  }
  return undefined;
}

function layoutAt(head: Buffer, start: number, total: number): RawLayout | undefined {
  if (head.length < start + 12) return undefined;
  const width = head.readUInt32LE(start);
  const height = head.readUInt32LE(start + 4);
  const format = head.readUInt32LE(start + 8);
  const header = total - start - width * height * 4;
  // Formats 1 (RGBA_8888) and 2 (RGBX_8888) share the layout; others (RGB_565…) are left to `png`.
  if ((format !== 1 && format !== 2) || (header !== 12 && header !== 16) || width === 0 || height === 0)
    return undefined;
  return { width, height, format, start, offset: start + header };
}

/**
 * Captures the screen (`display`: SurfaceFlinger's physical id, passed as `-d`); undefined when the
 * device's answer is not a usable frame in that format.
 */
export async function captureScreen(
  manager: DeviceManager,
  serial: string,
  format: CaptureFormat,
  signal: AbortSignal,
  display?: string,
): Promise<Capture | undefined> {
  const opts = { timeoutMs: 15_000, signal, maxBytes: 128 * 1024 * 1024 };
  const target = display ? ` -d ${display}` : '';
  if (format === 'png') {
    const { data } = await manager.exec(serial, `screencap -p${target}`, opts);
    const { text, image } = splitCaptureText(data, PNG_SIGNATURE);
    const size = pngSize(image);
    return size ? { png: image, ...size, multiDisplay: MULTI_DISPLAY_WARNING.test(text) } : undefined;
  }
  const { raw } = await captureRawAsItArrives((onChunk) =>
    manager.execChunks(serial, `screencap${target}`, { ...opts, onChunk }),
  );
  if (!raw) return undefined;
  return { png: raw.png, width: raw.width, height: raw.height, multiDisplay: MULTI_DISPLAY_WARNING.test(raw.text) };
}

export interface RawCapture extends RawLayout {
  png: Buffer;
  /** What screencap wrote before the frame (a multi-display warning), at most 4 KB. */
  text: string;
  /** The output's first bytes, for a message about it. */
  head: Buffer;
}

/**
 * A raw `screencap` output as a PNG; undefined when it is not a frame this host reads. `bytes` may
 * still be arriving: the frame is then encoded as it comes in, from the layout its first bytes
 * suggest (likelyLayout), and checked against the whole output's length once that is known; a
 * guess that proves wrong (an Android 7 header without dataspace) is encoded again from the whole.
 */
export async function encodeRawCapture(bytes: ByteChunks): Promise<RawCapture | undefined> {
  await bytes.ready(RAW_HEAD_BYTES);
  const guess = bytes.complete ? undefined : likelyLayout(bytes.head(RAW_HEAD_BYTES));
  const early = guess && settle(encodeFrame(bytes, guess));
  await bytes.ready(Number.POSITIVE_INFINITY);
  const head = bytes.head(RAW_HEAD_BYTES);
  const layout = rawFrameLayout(head, bytes.length);
  const guessed = early && (await early);
  if (!layout) return undefined;
  const png = guessed && 'png' in guessed && sameLayout(guess, layout) ? guessed.png : await encodeFrame(bytes, layout);
  const text = head.subarray(0, layout.start).toString('latin1');
  return { ...layout, png, text, head };
}

/**
 * Runs a raw `screencap` through `run`, which hands each chunk of the output to `onChunk` as it
 * arrives, and encodes the frame meanwhile: the PNG is ready a strip after the last byte, rather
 * than a whole encoding after it. The output's bytes come back with the capture.
 */
export async function captureRawAsItArrives(
  run: (onChunk: (chunk: Buffer) => void) => Promise<unknown>,
): Promise<{ bytes: ByteChunks; raw: RawCapture | undefined }> {
  const bytes = ByteChunks.arriving();
  const encoding = settle(encodeRawCapture(bytes));
  try {
    await run((chunk) => bytes.push(chunk));
  } finally {
    bytes.end();
  }
  const raw = await encoding;
  if ('error' in raw) throw raw.error;
  return { bytes, raw: raw.png };
}

function encodeFrame(bytes: ByteChunks, layout: RawLayout): Promise<Buffer> {
  return encodeRgbaPngFrom(layout.width, layout.height, bytes, layout.offset, layout.format === 2);
}

/** A promise's outcome as a value, so that one nobody awaits yet is never an unhandled rejection. */
function settle<T>(p: Promise<T>): Promise<{ png: T } | { error: unknown }> {
  return p.then(
    (png) => ({ png }),
    (error: unknown) => ({ error }),
  );
}

function sameLayout(a: RawLayout, b: RawLayout): boolean {
  return a.width === b.width && a.height === b.height && a.format === b.format && a.offset === b.offset;
}

/** The largest side a phone's screen has (8K is 7,680 px). */
const MAX_SIDE = 16_384;

/**
 * The layout a raw output's first bytes suggest before its length is known: at the start or after
 * a line of text, a width and height of a screen and format 1 or 2, followed by the dataspace that
 * screencap writes since Android 8 (16 bytes of header).
 */
function likelyLayout(head: Buffer): RawLayout | undefined {
  const plausible = (start: number): RawLayout | undefined => {
    if (head.length < start + 16) return undefined;
    const width = head.readUInt32LE(start);
    const height = head.readUInt32LE(start + 4);
    const format = head.readUInt32LE(start + 8);
    if (format !== 1 && format !== 2) return undefined;
    if (width === 0 || height === 0 || width > MAX_SIDE || height > MAX_SIDE) return undefined;
    return { width, height, format, start, offset: start + 16 };
  };
  const direct = plausible(0);
  if (direct) return direct;
  for (let at = head.indexOf(0x0a); at >= 0 && at < 4096; at = head.indexOf(0x0a, at + 1)) {
    const layout = plausible(at + 1);
    if (layout) return layout;
  }
  return undefined;
}
