/**
 * The host's PNG writer for raw screen frames takes the frame as it arrives, in pieces of any size,
 * and deflates it a strip of rows at a time: the image decodes to exactly the pixels sent, whatever
 * the pieces, across strips, and with RGBX frames made opaque; it holds what it cannot take yet and
 * says when it can. A raw screencap output is encoded while it arrives, from the layout its first
 * bytes suggest, and that layout is checked against the whole output's length at its end.
 */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { RgbaPngWriter, pngSize } from '../../tools/devices/png';
import { receiveRawFrame } from '../../tools/devices/raw-frame';

/** A frame whose every byte differs from its neighbours, so a byte in the wrong place shows. */
function frame(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 4);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7 + (i >> 10)) & 0xff;
  return pixels;
}

/** `data` cut into pieces of the given sizes, in turn, to its end. */
function pieces(data: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0, i = 0; at < data.length; i++) {
    const n = sizes[i % sizes.length]!;
    out.push(data.subarray(at, at + n));
    at += n;
  }
  return out;
}

/**
 * Writes `data` in pieces as a socket would: each piece into one reused buffer that is
 * overwritten after the write, and no more pieces while the writer asks to wait.
 */
async function feed(writer: { write(b: Buffer): boolean; drained(): Promise<void> }, data: Buffer, sizes: number[]) {
  const reused = Buffer.alloc(Math.max(...sizes));
  for (const piece of pieces(data, sizes)) {
    piece.copy(reused);
    const more = writer.write(reused.subarray(0, piece.length));
    reused.fill(0xee);
    if (!more) await writer.drained();
  }
}

describe('RgbaPngWriter', () => {
  it('decodes to the pixels sent, from pieces that split rows and pixels, over several strips', async () => {
    // 300 px wide: 1,201 bytes a row, 218 rows a 256 KB strip, so 500 rows are three strips.
    const pixels = frame(300, 500);
    const writer = new RgbaPngWriter(300, 500);
    await feed(writer, pixels, [1, 4093, 65_536, 7, 100_003]);
    const png = await writer.end();
    expect(pngSize(png)).toEqual({ width: 300, height: 500 });
    expect(PNG.sync.read(png).data.equals(pixels)).toBe(true);
  });

  it('hands each strip to deflate as soon as its rows are in, before the rest of the frame', () => {
    const strips: [number, number][] = [];
    const writer = new RgbaPngWriter(300, 500, { onRows: (_rows, first, count) => strips.push([first, count]) });
    writer.write(frame(300, 500).subarray(0, 218 * 1200 + 5));
    expect(strips).toEqual([[0, 218]]);
    writer.abandon();
  });

  it('keeps what it cannot take while both strips are deflated, and says when it can take more', async () => {
    const pixels = frame(1080, 600);
    const writer = new RgbaPngWriter(1080, 600);
    // All of it at once: more than two strips, so the writer must hold the rest.
    expect(writer.write(pixels)).toBe(false);
    await writer.drained();
    expect(PNG.sync.read(await writer.end()).data.equals(pixels)).toBe(true);
  });

  it('writes alpha 255 for an RGBX frame, whose fourth byte is not alpha', async () => {
    const pixels = frame(5, 3);
    const writer = new RgbaPngWriter(5, 3, { opaque: true });
    writer.write(pixels);
    const decoded = PNG.sync.read(await writer.end()).data;
    for (let i = 0; i < pixels.length; i++) expect(decoded[i]).toBe(i % 4 === 3 ? 255 : pixels[i]);
  });

  it('fails for a frame shorter or longer than its size says', async () => {
    const short = new RgbaPngWriter(4, 4);
    short.write(frame(4, 4).subarray(0, 60));
    await expect(short.end()).rejects.toThrow('the frame is 4 byte(s) short');
    const long = new RgbaPngWriter(4, 4);
    long.write(frame(4, 5));
    await expect(long.end()).rejects.toThrow("16 byte(s) past the frame's end");
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

/** The receiver's frame after `output` arrived in pieces of `sizes`, a turn of the event loop apart. */
async function receive(output: Buffer, sizes = [65_536]) {
  return receiveRawFrame(async (sink) => {
    for (const piece of pieces(output, sizes)) {
      if (!sink.write(Buffer.from(piece))) await sink.drained();
      await new Promise((r) => setImmediate(r));
    }
  });
}

describe('RawFrameReceiver', () => {
  it('encodes a frame that arrives in pieces, and the image is exact', async () => {
    const pixels = frame(300, 500);
    const raw = await receive(rawOutput(300, 500, pixels), [40_000]);
    expect(raw).toMatchObject({ width: 300, height: 500, format: 1, offset: 16, text: '', mostlyBlack: false });
    expect(PNG.sync.read(raw!.png).data.equals(pixels)).toBe(true);
  });

  it('skips a line of text before the frame, as screencap writes on a phone with two displays', async () => {
    const pixels = frame(40, 30);
    const text = '[Warning] Multiple displays were found, but no display id was specified!\n';
    const raw = await receive(rawOutput(40, 30, pixels, { text }), [7, 1000]);
    expect(raw?.text).toBe(text);
    expect(PNG.sync.read(raw!.png).data.equals(pixels)).toBe(true);
  });

  it('reads an Android 7 header (no dataspace) from its opaque first pixel', async () => {
    const pixels = frame(64, 48);
    pixels[3] = 0xff;
    const raw = await receive(rawOutput(64, 48, pixels, { dataspace: false }), [5000]);
    expect(raw).toMatchObject({ width: 64, height: 48, offset: 12 });
    expect(PNG.sync.read(raw!.png).data.equals(pixels)).toBe(true);
  });

  it('gives no image when the whole length does not bear out the guessed header (a PNG is taken then)', async () => {
    const pixels = frame(64, 48);
    pixels[3] = 0x10; // a see-through first pixel reads like a dataspace
    expect(await receive(rawOutput(64, 48, pixels, { dataspace: false }), [5000])).toBeUndefined();
  });

  it('reads a whole output shorter than the head it looks at by its exact length', async () => {
    const pixels = frame(8, 8);
    pixels[3] = 0x10;
    const raw = await receive(rawOutput(8, 8, pixels, { dataspace: false }));
    expect(raw).toMatchObject({ width: 8, height: 8, offset: 12 });
    expect(PNG.sync.read(raw!.png).data.equals(pixels)).toBe(true);
  });

  it('gives no image for an output cut short, rather than a frame with missing rows', async () => {
    const output = rawOutput(300, 500, frame(300, 500));
    expect(await receive(output.subarray(0, output.length - 1201))).toBeUndefined();
  });

  it('says whether the frame is mostly black, from every 97th pixel', async () => {
    const black = Buffer.alloc(200 * 100 * 4);
    for (let i = 3; i < black.length; i += 4) black[i] = 0xff;
    expect(await receive(rawOutput(200, 100, black))).toMatchObject({ mostlyBlack: true });
    // One in ten of the pixels looked at lit: no longer nine in ten black.
    for (let p = 0; p < 200 * 100; p += 97 * 9) black[p * 4] = 0xff;
    expect(await receive(rawOutput(200, 100, black))).toMatchObject({ mostlyBlack: false });
  });

  it("fails with the command's own error when the command fails midway", async () => {
    const output = rawOutput(300, 500, frame(300, 500));
    const run = receiveRawFrame(async (sink) => {
      sink.write(output.subarray(0, 100_000));
      throw new Error('device offline');
    });
    await expect(run).rejects.toThrow('device offline');
  });
});
