/**
 * PNG facts and a fast PNG writer for screen frames. Written by hand rather than with pngjs (used
 * elsewhere for decoding and scaling): pngjs filters rows in JavaScript on the event loop and
 * its encoder took 40-80 ms per 720x1280 frame here; rows with the "None" filter deflated at
 * level 1 by node's zlib on the thread pool take ~7 ms and compress flat UI screens to ~30 KB.
 */
import { createDeflate, crc32 } from 'node:zlib';
import { ByteChunks } from './byte-chunks';

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

/** Encodes 8-bit RGBA pixels (row after row, no padding) as a PNG. */
export function encodeRgbaPng(width: number, height: number, pixels: Buffer, opaque = false): Promise<Buffer> {
  return encodeRgbaPngFrom(width, height, new ByteChunks([pixels]), 0, opaque);
}

/** Rows are deflated a strip at a time, in two strips of about this size that take turns. */
const STRIP_BYTES = 256 * 1024;

/**
 * Encodes the RGBA pixels that start at `offset` in `source` (a command's output as it arrived, or
 * as it arrives: each strip waits for its rows) as a PNG: each row gets its filter byte (0, None)
 * as it is copied into one of two small strips, and a strip is deflated on the thread pool while
 * the other is filled. The frame is never joined or
 * copied whole, so a 10 MB frame costs 0.5 MB of buffers here, not 20 MB.
 * `opaque`: the frame is RGBX (its fourth byte is not alpha), so alpha is written as 255.
 */
export async function encodeRgbaPngFrom(
  width: number,
  height: number,
  source: ByteChunks,
  offset: number,
  opaque = false,
): Promise<Buffer> {
  const stride = width * 4;
  const rowBytes = stride + 1;
  const rowsPerStrip = Math.max(1, Math.floor(STRIP_BYTES / rowBytes));
  const read = source.reader(offset);
  const z = createDeflate({ level: 1, chunkSize: STRIP_BYTES });
  const idat: Buffer[] = [];
  z.on('data', (d: Buffer) => idat.push(d));
  const ended = new Promise<void>((resolve, reject) => {
    z.once('end', resolve);
    z.once('error', reject);
  });
  const strips = [Buffer.allocUnsafe(rowsPerStrip * rowBytes), Buffer.allocUnsafe(rowsPerStrip * rowBytes)];
  // The write that last used each strip: zlib is done reading it when this settles (with its error).
  const consumed: Promise<Error | null | undefined>[] = [Promise.resolve(null), Promise.resolve(null)];
  const settled = async (turn: number) => {
    const err = await consumed[turn];
    if (err) throw err;
  };
  try {
    for (let y = 0, turn = 0; y < height; y += rowsPerStrip, turn ^= 1) {
      await settled(turn);
      const strip = strips[turn]!;
      const rows = Math.min(rowsPerStrip, height - y);
      const needed = offset + (y + rows) * stride;
      if (source.length < needed) await source.ready(needed);
      for (let r = 0; r < rows; r++) {
        const at = r * rowBytes;
        strip[at] = 0;
        read(strip, at + 1, stride);
        if (opaque) for (let i = at + 4; i < at + rowBytes; i += 4) strip[i] = 255;
      }
      consumed[turn] = new Promise((resolve) => z.write(strip.subarray(0, rows * rowBytes), resolve));
    }
    z.end();
    await Promise.all([settled(0), settled(1), ended]);
  } catch (e) {
    z.destroy();
    throw e;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', Buffer.concat(idat)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
