/**
 * PNG facts and a fast PNG writer for screen frames. Written by hand rather than with pngjs (used
 * elsewhere for decoding and scaling): pngjs filters rows in JavaScript on the event loop and
 * its encoder took 40-80 ms per 720x1280 frame here; rows with the "None" filter deflated at
 * level 1 by node's zlib on the thread pool take ~7 ms and compress flat UI screens to ~30 KB.
 */
import { crc32, deflate } from 'node:zlib';

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
  const stride = width * 4;
  const rows = Buffer.alloc((stride + 1) * height); // each row: filter byte 0 (None), then the pixels
  for (let y = 0; y < height; y++) pixels.copy(rows, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  if (opaque)
    for (let y = 0; y < height; y++)
      for (let i = y * (stride + 1) + 4; i < (y + 1) * (stride + 1); i += 4) rows[i] = 255;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  return new Promise((resolve, reject) => {
    deflate(rows, { level: 1 }, (err, idat) => {
      if (err) reject(err);
      else
        resolve(Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]));
    });
  });
}
