/**
 * Rule (docs/architecture.md#parts-and-layers, UI, docs/architecture.md#real-components): the
 * device service is a live source for the UI — a screen stream of PNG frames over the persistent
 * adb client, one capture at a time, with a measured frame rate, and a logcat tail of whole lines;
 * both survive the device dropping off and stop when disposed.
 */
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolCallError } from '../../tools/core';

import type { ScreenFrame } from '../../tools/devices';
import { captureScreen } from '../../tools/devices/screen-capture';
import { receiveRawFrame } from '../../tools/devices/raw-frame';
import { connectToAdb, waitForAdbState, type VirtualDevice } from '../../tools/devices/virtual';
import { type DeviceLab, startDeviceLab } from './device-lab';
import { ManualClock } from '../support/manual-clock';

let lab: DeviceLab;
let device: VirtualDevice;

/** A raw screencap output made of `parts`, as the host receives one. */
function received(...parts: Buffer[]) {
  return receiveRawFrame(async (sink) => {
    for (const p of parts) sink.write(p);
  });
}

beforeAll(async () => {
  lab = await startDeviceLab({ commandTimeoutMs: 5_000 });
  device = lab.devices[0]!;
});

afterAll(async () => {
  await lab?.close();
});

describe('the screenshot tool', () => {
  /** The image a screenshot returned, decoded, and how its capture was asked for. */
  async function screenshot() {
    const result = await lab.call('screenshot');
    expect(result.ok).toBe(true);
    const image = result.ok ? result.content.find((c) => c.type === 'image') : undefined;
    const png = PNG.sync.read(Buffer.from((image as { data: string }).data, 'base64'));
    const asked = device.executedCommands.filter((argv) => argv[0] === 'screencap').at(-1)!;
    return { png, raw: !asked.includes('-p') };
  }

  it('tries the phone PNG and the raw pixels encoded here, keeps the faster, and gives the same image', async () => {
    const tried = [];
    for (let i = 0; i < 4; i++) tried.push(await screenshot());
    // png, raw, png, raw: two trials each.
    expect(tried.map((t) => t.raw)).toEqual([false, true, false, true]);
    const { width, height } = device.phone.screen;
    for (const t of tried) expect([t.png.width, t.png.height]).toEqual([width, height]);
    // Either way the same picture: pixels differ only where the screen itself moved on.
    const [a, b] = [tried[0]!.png.data, tried[1]!.png.data];
    let differing = 0;
    for (let i = 0; i < a.length; i += 4) if (a.readUInt32BE(i) !== b.readUInt32BE(i)) differing++;
    expect(differing / (a.length / 4)).toBeLessThan(0.01);
    const kept = [await screenshot(), await screenshot(), await screenshot()].map((t) => t.raw);
    expect(new Set(kept).size).toBe(1);
  });
});

describe('screen stream', () => {
  it('delivers PNG frames of the screen with their size, and measures the frame rate', async () => {
    const frames: ScreenFrame[] = [];
    const stream = lab.service.startScreenStream(device.serial, (f) => frames.push(f));
    await expect.poll(() => frames.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
    expect(stream.framesPerSecond()).toBeGreaterThan(0);
    stream.dispose();
    const first = frames[0]!;
    const { width, height } = device.phone.screen;
    expect(first).toMatchObject({ mimeType: 'image/png', width, height, fps: 0 });
    expect(frames.at(-1)!.fps).toBeGreaterThan(0);
    const png = PNG.sync.read(first.png);
    expect([png.width, png.height]).toEqual([width, height]);
    for (let i = 1; i < frames.length; i++) expect(frames[i]!.at).toBeGreaterThanOrEqual(frames[i - 1]!.at);
  });

  it('runs one capture at a time and stops capturing once disposed', async () => {
    const captures = () => device.executedCommands.filter((argv) => argv[0] === 'screencap').length;
    let delivered = 0;
    let failed = 0;
    let overlapped = false;
    const startCount = captures();
    const stream = lab.service.startScreenStream(
      device.serial,
      () => {
        delivered++;
        // While a frame is handled, no capture has started beyond those that made a frame or failed
        // (a capture that times out on a loaded machine is retried, which is not an overlap).
        if (captures() > startCount + delivered + failed) overlapped = true;
      },
      // PNG only: with 'auto' a raw trial capture that yields nothing is dropped silently, which would read as an
      // overlap.
      { format: 'png', onError: () => void failed++ },
    );
    await expect.poll(() => delivered, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    stream.dispose();
    expect(overlapped).toBe(false);
    const atDispose = captures();
    await lab.call('get_time'); // a full round trip to the device after dispose
    await lab.call('get_time');
    expect(captures()).toBeLessThanOrEqual(atDispose + 1);
    expect(stream.frameCount).toBe(delivered);
  });

  it('reports the device dropping off and resumes when it is back', async () => {
    const frames: ScreenFrame[] = [];
    const errors: ToolCallError[] = [];
    const stream = lab.service.startScreenStream(device.serial, (f) => frames.push(f), {
      onError: (e) => errors.push(e),
      retryMs: 100,
    });
    await expect.poll(() => frames.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    device.faults = { refuseConnections: true };
    device.unplug();
    try {
      // A capture cut mid-frame is reported first as the cut it is; the next try finds the device gone.
      await expect
        .poll(() => errors.some((e) => e.hint?.includes(`adb connect ${device.serial}`)), { timeout: 20_000 })
        .toBe(true);
    } finally {
      // Back for the next test, whatever this one found.
      device.faults = {};
      await connectToAdb(device);
    }
    const resumedFrom = frames.length;
    await expect.poll(() => frames.length, { timeout: 20_000 }).toBeGreaterThan(resumedFrom);
    stream.dispose();
  });

  it('keeps to an fps cap: the next capture waits for the frame interval on the injected clock', async () => {
    const clock = new ManualClock();
    const frames: ScreenFrame[] = [];
    const stream = lab.service.startScreenStream(device.serial, (f) => frames.push(f), { fps: 2, clock });
    await expect.poll(() => frames.length, { timeout: 20_000 }).toBe(1);
    await lab.call('get_time');
    await lab.call('get_time');
    expect(frames).toHaveLength(1);
    await clock.advanceAsync(500);
    await expect.poll(() => frames.length, { timeout: 20_000 }).toBe(2);
    expect(frames[1]!.at - frames[0]!.at).toBe(500);
    stream.dispose();
  });
});

describe('capture formats', () => {
  it('gives the same picture whether the device or this host encodes the PNG', async () => {
    const signal = new AbortController().signal;
    const byDevice = await captureScreen(lab.service.manager, device.serial, 'png', signal);
    const byHost = await captureScreen(lab.service.manager, device.serial, 'raw', signal);
    const { width, height } = device.phone.screen;
    expect(byHost).toMatchObject({ width, height, multiDisplay: false });
    const a = PNG.sync.read(byDevice!.png);
    const b = PNG.sync.read(byHost!.png);
    // Below the status bar, whose clock may tick between the two captures.
    const below = Math.round(48 * device.phone.layout.scale) * width * 4;
    expect(b.data.subarray(below).equals(a.data.subarray(below))).toBe(true);
  });

  it('finds a raw frame behind the text screencap writes before it (the multi-display warning)', async () => {
    const header = Buffer.alloc(16);
    header.writeUInt32LE(2, 0);
    header.writeUInt32LE(2, 4);
    header.writeUInt32LE(1, 8);
    const warning = Buffer.from(
      '[Warning] Multiple displays were found, but no display id was specified! Defaulting to the first display ' +
        'found.\nA display ID can be specified with the [-d display-id] option.\n',
    );
    const raw = await received(warning, header, Buffer.alloc(16, 7));
    expect(raw).toMatchObject({ width: 2, height: 2, text: warning.toString() });
    expect(PNG.sync.read(raw!.png).data.equals(Buffer.alloc(16, 7))).toBe(true);
  });

  it('refuses raw data that is not a whole RGBA frame', async () => {
    const header = Buffer.alloc(16);
    header.writeUInt32LE(2, 0);
    header.writeUInt32LE(2, 4);
    header.writeUInt32LE(1, 8);
    const read = (...parts: Buffer[]) => received(header, ...parts);
    expect(await read(Buffer.alloc(16))).toMatchObject({ width: 2, height: 2 });
    expect(await read(Buffer.alloc(15))).toBeUndefined();
    header.writeUInt32LE(4, 8); // RGB_565
    expect(await read(Buffer.alloc(16))).toBeUndefined();
  });

  it('settles the stream on the faster way after measuring both', async () => {
    let frames = 0;
    const stream = lab.service.startScreenStream(device.serial, () => frames++);
    await expect.poll(() => frames, { timeout: 20_000 }).toBeGreaterThanOrEqual(6);
    expect(['png', 'raw']).toContain(stream.format);
    stream.dispose();
    const pinned = lab.service.startScreenStream(device.serial, () => undefined, { format: 'png' });
    expect(pinned.format).toBe('png');
    pinned.dispose();
  });
});

describe('logcat tail', () => {
  it('delivers whole lines, including ones logged after it started, until disposed', async () => {
    const lines: string[] = [];
    const tail = lab.service.tailLogcat(device.serial, (batch) => lines.push(...batch));
    await expect.poll(() => lines.some((l) => l.includes('System now ready')), { timeout: 20_000 }).toBe(true);
    device.phone.log.add('W', 'TailTest', 'fresh line after start', 4321);
    await expect
      .poll(() => lines.some((l) => / W TailTest\s*: fresh line after start$/.test(l)), { timeout: 20_000 })
      .toBe(true);
    expect(lines.every((l) => !l.includes('\n') && !l.startsWith('--------- beginning'))).toBe(true);
    tail.dispose();
    const count = lines.length;
    device.phone.log.add('W', 'TailTest', 'after dispose', 4321);
    await lab.call('get_time');
    expect(lines.length).toBe(count);
  });

  it('reopens after the device comes back', async () => {
    const lines: string[] = [];
    const tail = lab.service.tailLogcat(device.serial, (batch) => lines.push(...batch), { retryMs: 100 });
    await expect.poll(() => lines.length, { timeout: 20_000 }).toBeGreaterThan(0);
    device.unplug();
    await waitForAdbState(device.serial, 'device');
    device.phone.log.add('I', 'TailTest', 'after replug', 4321);
    await expect.poll(() => lines.some((l) => l.endsWith('after replug')), { timeout: 20_000 }).toBe(true);
    tail.dispose();
  });
});
