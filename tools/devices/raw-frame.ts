/**
 * A raw `screencap` output (no -p), received as it arrives and encoded as a PNG meanwhile.
 * The output is width, height, pixel format, (dataspace since Android 8,) pixels (AOSP
 * `cmds/screencap/screencap.cpp`); lines of text may come before it (a multi-display warning).
 * The frame's layout is taken from its first bytes, while the rest still comes, and checked against
 * the whole output's length once that is known: a guess the length does not bear out gives no image
 * (the caller then asks for the phone's PNG), never a frame with rows shifted.
 */
import type { ByteSink } from './manager/adb-exec-into';
import { RgbaPngWriter } from './png';

/** Bytes of text a raw frame may follow, at most, and then its largest header. */
export const RAW_HEAD_BYTES = 4096 + 16;

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

export interface RawCapture extends RawLayout {
  png: Buffer;
  /** What screencap wrote before the frame (a multi-display warning), at most 4 KB. */
  text: string;
  /** The output's first bytes, for a message about it. */
  head: Buffer;
  /** Nine in ten of the frame's pixels (one in 97 looked at) are black. */
  mostlyBlack: boolean;
}

/**
 * Takes a raw screencap output as it arrives (a ByteSink for execInto): the first RAW_HEAD_BYTES
 * are kept, the pixels after them go to a PNG writer as they come. `result` once the output ended.
 */
export class RawFrameReceiver implements ByteSink {
  private readonly headParts: Buffer[] = [];
  private headLength = 0;
  private total = 0;
  private guess: RawLayout | undefined;
  private writer: RgbaPngWriter | undefined;
  /** The first bytes could not be a frame: the rest is only counted. */
  private unreadable = false;
  private dark = 0;
  private seen = 0;

  write(bytes: Buffer): boolean {
    this.total += bytes.length;
    if (this.writer) return this.writer.write(bytes);
    if (this.unreadable) return true;
    const take = Math.min(bytes.length, RAW_HEAD_BYTES - this.headLength);
    this.headParts.push(Buffer.from(bytes.subarray(0, take)));
    this.headLength += take;
    if (this.headLength < RAW_HEAD_BYTES) return true;
    const head = this.head();
    this.guess = likelyLayout(head);
    if (!this.guess) {
      this.unreadable = true;
      return true;
    }
    this.writer = this.startWriter(this.guess);
    return this.writer.write(Buffer.concat([head.subarray(this.guess.offset), bytes.subarray(take)]));
  }

  drained(): Promise<void> {
    return this.writer ? this.writer.drained() : Promise.resolve();
  }

  /** The frame as a PNG once the output has ended; undefined when it is not a frame this host reads. */
  async result(): Promise<RawCapture | undefined> {
    const head = this.head();
    const layout = rawFrameLayout(head, this.total);
    if (!this.writer && !this.unreadable && layout) {
      // The whole output was shorter than RAW_HEAD_BYTES: its layout is known exactly.
      this.guess = layout;
      this.writer = this.startWriter(layout);
      if (!this.writer.write(head.subarray(layout.offset))) await this.writer.drained();
    }
    const writer = this.writer;
    if (!writer || !layout || !this.guess || !sameLayout(this.guess, layout)) {
      writer?.abandon();
      return undefined;
    }
    const png = await writer.end();
    const text = head.subarray(0, layout.start).toString('latin1');
    return { ...layout, png, text, head, mostlyBlack: this.seen > 0 && this.dark / this.seen >= 0.9 };
  }

  /** The output ended in a failure: the encoding stops. */
  abandon(): void {
    this.writer?.abandon();
    this.unreadable = true;
  }

  private head(): Buffer {
    return this.headParts.length === 1 ? this.headParts[0]! : Buffer.concat(this.headParts);
  }

  private startWriter(layout: RawLayout): RgbaPngWriter {
    return new RgbaPngWriter(layout.width, layout.height, {
      opaque: layout.format === 2,
      onRows: (rows, firstRow, count) => this.lookForBlack(layout.width, rows, firstRow, count),
    });
  }

  /** Counts every 97th pixel of the frame, and those of them that are black. */
  private lookForBlack(width: number, rows: Buffer, firstRow: number, count: number): void {
    const rowBytes = width * 4 + 1;
    for (let r = 0; r < count; r++) {
      const first = (firstRow + r) * width;
      // The first pixel of this row whose index in the frame is a multiple of 97.
      for (let x = (97 - (first % 97)) % 97; x < width; x += 97) {
        const at = r * rowBytes + 1 + x * 4;
        this.seen++;
        if (rows[at]! < 16 && rows[at + 1]! < 16 && rows[at + 2]! < 16) this.dark++;
      }
    }
  }
}

/** Runs a raw screencap through `exec` (which hands its output to the sink) and gives its frame. */
export async function receiveRawFrame(exec: (sink: ByteSink) => Promise<unknown>): Promise<RawCapture | undefined> {
  const receiver = new RawFrameReceiver();
  try {
    await exec(receiver);
  } catch (e) {
    receiver.abandon();
    throw e;
  }
  return receiver.result();
}

/**
 * Where a raw frame's pixels start, read from the output's first RAW_HEAD_BYTES (`head`) and its
 * whole length: a header whose size agrees with what follows, at the start or after a line of text.
 */
export function rawFrameLayout(head: Buffer, total: number): RawLayout | undefined {
  return atStartOrAfterText(head, (start) => layoutAt(head, start, total));
}

function atStartOrAfterText(head: Buffer, at: (start: number) => RawLayout | undefined): RawLayout | undefined {
  const direct = at(0);
  if (direct) return direct;
  for (let nl = head.indexOf(0x0a); nl >= 0 && nl < 4096; nl = head.indexOf(0x0a, nl + 1)) {
    const layout = at(nl + 1);
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

/** The largest side a phone's screen has (8K is 7,680 px). */
const MAX_SIDE = 16_384;

/**
 * The layout a raw output's first bytes suggest before its length is known: at the start or after
 * a line of text, a width and height of a screen and format 1 or 2. The header has a dataspace
 * (16 bytes, Android 8 and later) unless its fourth word has bit 30 or 31 set: a dataspace never
 * does (its standard, transfer and range fields are bits 16–29, AOSP `graphics/common` Dataspace),
 * while an Android 7 frame's first pixel there, opaque, has alpha 0xFF.
 */
function likelyLayout(head: Buffer): RawLayout | undefined {
  return atStartOrAfterText(head, (start) => {
    if (head.length < start + 16) return undefined;
    const width = head.readUInt32LE(start);
    const height = head.readUInt32LE(start + 4);
    const format = head.readUInt32LE(start + 8);
    if (format !== 1 && format !== 2) return undefined;
    if (width === 0 || height === 0 || width > MAX_SIDE || height > MAX_SIDE) return undefined;
    const header = head.readUInt32LE(start + 12) >= 0x40000000 ? 12 : 16;
    return { width, height, format, start, offset: start + header };
  });
}

function sameLayout(a: RawLayout, b: RawLayout): boolean {
  return a.width === b.width && a.height === b.height && a.format === b.format && a.offset === b.offset;
}
