/**
 * The host's PNG writer for raw screen frames reads the frame as it arrived, in chunks of any size,
 * and deflates it a strip of rows at a time: the image decodes to exactly the pixels sent, whatever
 * the chunking, across strips, and with RGBX frames made opaque. A raw screencap output is encoded
 * while it still arrives, and checked against its whole length once it has.
 */
import { PNG } from 'pngjs';
import { describe, expect, it, vi } from 'vitest';
import { ByteChunks } from '../../tools/devices/byte-chunks';
import { encodeRgbaPng, encodeRgbaPngFrom, pngSize } from '../../tools/devices/png';
import { captureRawAsItArrives } from '../../tools/devices/screen-capture';

/** A frame whose every byte differs from its neighbours, so a byte in the wrong place shows. */
function frame(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 4);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7 + (i >> 10)) & 0xff;
  return pixels;
}

/** `data` cut into chunks of the given sizes, in turn, to its end. */
function chunked(data: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0, i = 0; at < data.length; i++) {
    const n = sizes[i % sizes.length]!;
    out.push(data.subarray(at, at + n));
    at += n;
  }
  return out;
}

describe('encodeRgbaPngFrom', () => {
  it('decodes to the pixels sent, from chunks that split rows and pixels, over several strips', async () => {
    // 300 px wide: 1,201 bytes a row, 218 rows a 256 KB strip, so 500 rows are three strips.
    const pixels = frame(300, 500);
    const header = Buffer.from('a warning line\n0123456789abcdef', 'latin1');
    const bytes = new ByteChunks(chunked(Buffer.concat([header, pixels]), [1, 4093, 65_536, 7, 100_003]));
    const png = await encodeRgbaPngFrom(300, 500, bytes, header.length);
    expect(pngSize(png)).toEqual({ width: 300, height: 500 });
    expect(PNG.sync.read(png).data.equals(pixels)).toBe(true);
  });

  it('writes alpha 255 for an RGBX frame, whose fourth byte is not alpha', async () => {
    const pixels = frame(5, 3);
    const decoded = PNG.sync.read(await encodeRgbaPng(5, 3, pixels, true)).data;
    for (let i = 0; i < pixels.length; i++) expect(decoded[i]).toBe(i % 4 === 3 ? 255 : pixels[i]);
  });

  it('fails, leaving nothing behind, when the frame is shorter than its header says', async () => {
    const bytes = new ByteChunks([frame(4, 4).subarray(0, 60)]);
    await expect(encodeRgbaPngFrom(4, 4, bytes, 0)).rejects.toThrow(/read past the end: 4 byte/);
  });
});

describe('ByteChunks', () => {
  const bytes = new ByteChunks([Buffer.from('ab'), Buffer.from(''), Buffer.from('cde'), Buffer.from('f')]);

  it('reads its first bytes, and a byte anywhere, forwards and back', () => {
    expect(bytes.length).toBe(6);
    expect(bytes.head(4).toString()).toBe('abcd');
    expect(bytes.head(99).toString()).toBe('abcdef');
    expect([5, 0, 3, 2, 6, -1].map((i) => bytes.at(i))).toEqual([0x66, 0x61, 0x64, 0x63, undefined, undefined]);
  });

  it('copies in order from any offset, each read going on from the last', () => {
    const read = bytes.reader(1);
    const target = Buffer.alloc(5, 0x2e);
    read(target, 0, 3);
    read(target, 3, 2);
    expect(target.toString()).toBe('bcdef');
    expect(() => read(target, 0, 1)).toThrow(RangeError);
  });
});

/** screencap's raw output: width, height, format, (dataspace,) pixels, after `text`. */
function rawOutput(width: number, height: number, pixels: Buffer, opts: { text?: string; dataspace?: boolean } = {}) {
  const header = Buffer.alloc(opts.dataspace === false ? 12 : 16);
  header.writeUInt32LE(width, 0);
  header.writeUInt32LE(height, 4);
  header.writeUInt32LE(1, 8);
  return Buffer.concat([Buffer.from(opts.text ?? '', 'latin1'), header, pixels]);
}

/** Hands `output` to onChunk in chunks of 65,536 bytes, a turn of the event loop apart, as a socket does. */
function arrive(output: Buffer, sizes = [65_536]) {
  return async (onChunk: (chunk: Buffer) => void) => {
    for (const c of chunked(output, sizes)) {
      onChunk(c);
      await new Promise((r) => setImmediate(r));
    }
  };
}

describe('captureRawAsItArrives', () => {
  it('encodes the rows that have arrived while the rest still comes, and the image is exact', async () => {
    const pixels = frame(300, 500);
    const asked: { bytes: number; arrived: number; complete: boolean }[] = [];
    const ready = ByteChunks.prototype.ready;
    const spy = vi.spyOn(ByteChunks.prototype, 'ready').mockImplementation(function (this: ByteChunks, n) {
      asked.push({ bytes: n, arrived: this.length, complete: this.complete });
      return ready.call(this, n);
    });
    try {
      const { raw } = await captureRawAsItArrives(arrive(rawOutput(300, 500, pixels), [40_000]));
      expect(raw).toMatchObject({ width: 300, height: 500, format: 1, offset: 16, text: '' });
      expect(PNG.sync.read(raw!.png).data.equals(pixels)).toBe(true);
    } finally {
      spy.mockRestore();
    }
    // The first strip waited for its own rows (218 of 500), not for the whole frame.
    const firstStrip = asked.find((a) => a.bytes === 16 + 218 * 1200);
    expect(firstStrip).toMatchObject({ complete: false });
    expect(firstStrip!.arrived).toBeLessThan(16 + 500 * 1200);
  });

  it('skips a line of text before the frame, as screencap writes on a phone with two displays', async () => {
    const pixels = frame(40, 30);
    const text = '[Warning] Multiple displays were found, but no display id was specified!\n';
    const { raw } = await captureRawAsItArrives(arrive(rawOutput(40, 30, pixels, { text }), [7, 1000]));
    expect(raw?.text).toBe(text);
    expect(PNG.sync.read(raw!.png).data.equals(pixels)).toBe(true);
  });

  it('encodes an Android 7 frame (a header without dataspace) again from the whole output', async () => {
    const pixels = frame(64, 48);
    const { raw } = await captureRawAsItArrives(arrive(rawOutput(64, 48, pixels, { dataspace: false }), [5000]));
    expect(raw).toMatchObject({ width: 64, height: 48, offset: 12 });
    expect(PNG.sync.read(raw!.png).data.equals(pixels)).toBe(true);
  });

  it('gives no image for an output cut short, rather than a frame with missing rows', async () => {
    const output = rawOutput(300, 500, frame(300, 500));
    const { raw, bytes } = await captureRawAsItArrives(arrive(output.subarray(0, output.length - 1201)));
    expect(raw).toBeUndefined();
    expect(bytes.length).toBe(output.length - 1201);
  });

  it("fails with the command's own error when the command fails midway", async () => {
    const output = rawOutput(300, 500, frame(300, 500));
    const run = async (onChunk: (chunk: Buffer) => void) => {
      onChunk(output.subarray(0, 100_000));
      throw new Error('device offline');
    };
    await expect(captureRawAsItArrives(run)).rejects.toThrow('device offline');
  });
});
