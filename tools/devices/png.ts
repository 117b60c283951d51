/**
 * PNG facts and a fast PNG writer for screen frames. Written by hand rather than with pngjs (used
 * elsewhere for decoding and scaling): pngjs filters rows in JavaScript on the event loop and
 * its encoder took 40-80 ms per 720x1280 frame here; rows with the "None" filter deflated at
 * level 1 by node's zlib on the thread pool take ~7 ms and compress flat UI screens to ~30 KB.
 */
import { type Deflate, createDeflate, crc32 } from 'node:zlib';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SIGNATURE = PNG_SIGNATURE;

/** Width and height from the IHDR chunk of a complete PNG (it must end with IEND), or undefined. */
export function pngSize(data: Buffer): { width: number; height: number } | undefined {
  if (data.length < 45 || !data.subarray(0, 8).equals(SIGNATURE)) return undefined;
  if (data.toString('ascii', 12, 16) !== 'IHDR') return undefined;
  // A capture cut short by a dropped link lacks the final IEND chunk (its 4 bytes come before the CRC).
  if (data.toString('ascii', data.length - 8, data.length - 4) !== 'IEND') return undefined;
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** Rows are deflated a strip at a time, in two strips of about this size that take turns. */
const STRIP_BYTES = 256 * 1024;

export interface RgbaPngOptions {
  /** The frame is RGBX (its fourth byte is not alpha), so alpha is written as 255. */
  opaque?: boolean;
  /**
   * Sees each strip of rows as it is handed to deflate: `rows` holds `count` rows from `firstRow`
   * on, each after its filter byte.
   */
  onRows?: (rows: Buffer, firstRow: number, count: number) => void;
}

/**
 * Encodes 8-bit RGBA pixels as a PNG while they arrive, in pieces of any size (a command's output
 * as it is read): each row gets its filter byte (0, None) as it is copied into one of two small
 * strips, and a strip is deflated at level 1 on the thread pool while the other is filled. The
 * frame is never held whole, so a 10 MB frame costs 0.5 MB of buffers here.
 * `write` returns false when both strips are still being deflated (what was given is kept): the
 * writer then takes more once `drained` settles.
 */
export class RgbaPngWriter {
  private readonly stride: number;
  private readonly rowBytes: number;
  private readonly rowsPerStrip: number;
  private readonly strips: [Buffer, Buffer];
  /** Whether deflate still reads each strip. */
  private readonly busy = [false, false];
  private readonly z: Deflate;
  private readonly idat: Buffer[] = [];
  private readonly ended: Promise<void>;
  private turn = 0;
  /** Bytes in the current strip, filter bytes included. */
  private filled = 0;
  private rowsInStrip = 0;
  /** Bytes of the current row copied so far. */
  private column = 0;
  private rowsDone = 0;
  private excess = 0;
  /** What a write could not take yet (a copy): taken first once a strip is free. */
  private pending: Buffer | undefined;
  private waiters: (() => void)[] = [];
  private failure: Error | undefined;

  constructor(
    readonly width: number,
    readonly height: number,
    private readonly options: RgbaPngOptions = {},
  ) {
    this.stride = width * 4;
    this.rowBytes = this.stride + 1;
    this.rowsPerStrip = Math.max(1, Math.min(height, Math.floor(STRIP_BYTES / this.rowBytes)));
    const size = this.rowsPerStrip * this.rowBytes;
    this.strips = [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)];
    this.z = createDeflate({ level: 1, chunkSize: STRIP_BYTES });
    this.z.on('data', (d: Buffer) => this.idat.push(d));
    this.ended = new Promise<void>((resolve, reject) => {
      this.z.once('end', resolve);
      this.z.on('error', reject);
    });
    this.ended.catch(() => undefined);
  }

  /** Takes the next bytes of the frame; false: they are kept, and the writer takes more after `drained`. */
  write(bytes: Buffer): boolean {
    if (this.pending) {
      this.pending = Buffer.concat([this.pending, bytes]);
      return false;
    }
    let at = 0;
    while (at < bytes.length) {
      if (this.rowsDone === this.height) {
        this.excess += bytes.length - at;
        return true;
      }
      if (this.busy[this.turn]) {
        this.pending = Buffer.from(bytes.subarray(at));
        return false;
      }
      const strip = this.strips[this.turn]!;
      if (this.column === 0) strip[this.filled++] = 0;
      const n = Math.min(this.stride - this.column, bytes.length - at);
      bytes.copy(strip, this.filled, at, at + n);
      if (this.options.opaque) {
        for (let c = this.column + ((3 - (this.column % 4) + 4) % 4); c < this.column + n; c += 4)
          strip[this.filled + c - this.column] = 255;
      }
      this.filled += n;
      this.column += n;
      at += n;
      if (this.column === this.stride) {
        this.column = 0;
        this.rowsInStrip++;
        this.rowsDone++;
        if (this.rowsInStrip === this.rowsPerStrip || this.rowsDone === this.height) this.deflateStrip();
      }
    }
    return true;
  }

  /** Settles once the writer takes bytes again (at once when it does). */
  drained(): Promise<void> {
    if (!this.pending) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The PNG, once every row has arrived; rejects when the frame is short or long, or deflate failed. */
  async end(): Promise<Buffer> {
    await this.drained();
    const missing = (this.height - this.rowsDone) * this.stride - this.column;
    if (missing > 0 || this.excess > 0 || this.failure) {
      this.z.destroy();
      if (this.failure) throw this.failure;
      throw new RangeError(
        missing > 0 ? `the frame is ${missing} byte(s) short` : `${this.excess} byte(s) past the frame's end`,
      );
    }
    this.z.end();
    await this.ended;
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header[8] = 8; // bit depth
    header[9] = 6; // colour type RGBA
    return Buffer.concat([
      SIGNATURE,
      chunk('IHDR', header),
      chunk('IDAT', Buffer.concat(this.idat)),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }

  /** Gives up: the deflate stream is closed and nothing more is taken. */
  abandon(): void {
    this.z.destroy();
    this.pending = undefined;
    for (const wake of this.waiters.splice(0)) wake();
  }

  private deflateStrip(): void {
    const turn = this.turn;
    const rows = this.strips[turn]!.subarray(0, this.filled);
    this.options.onRows?.(rows, this.rowsDone - this.rowsInStrip, this.rowsInStrip);
    this.busy[turn] = true;
    this.z.write(rows, (err) => {
      this.busy[turn] = false;
      if (err) this.failure ??= err;
      this.takePending();
    });
    this.turn ^= 1;
    this.filled = 0;
    this.rowsInStrip = 0;
  }

  private takePending(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    if (!this.write(pending)) return;
    for (const wake of this.waiters.splice(0)) wake();
  }
}
