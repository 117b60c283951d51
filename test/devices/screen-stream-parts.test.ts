/**
 * Rule: the parts of the live screen each do one thing right. Annex B from an encoder is cut into
 * one access unit per picture however the bytes arrive, key frames carry their SPS and PPS, and a
 * picture cut short is noticed; the video is sized for the canvas with the display's aspect kept
 * and a bit rate the link can spare; a viewer's window bounds what it holds and makes it skip to the
 * next key frame; the display's size follows its rotation; the latency probe survives a round trip;
 * a throttled link delivers at its rate and latency; frames cross the wire intact.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { COUNTER_MODULO, TIME_MODULO, probeAge, probeCells, readProbe, unwrapCounter } from '../../shared/screen-probe';
import { decodeFrame, encodeFrame } from '../../shared/screen-wire';
import { AnnexBSplitter, codecString, nalType, withParameterSets } from '../../tools/devices/screen/annexb';
import { parseGeometry } from '../../tools/devices/screen/display-geometry';
import { chooseBitRate, chooseVideoSize, linkOf } from '../../tools/devices/screen/stream-params';
import { ViewerWindow } from '../../tools/devices/screen/viewer-window';
import { type PipeClock, ThrottledPipe } from '../../tools/devices/virtual/link-throttle';
import { classifyGesture, containedRect } from '../../renderer/src/pages/devices/screen-gesture';

/** Real encoder output: six 128×96 pictures of two slices each, a key frame every three. */
function encodeSample(): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    execFile(
      'ffmpeg',
      [
        ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=128x96:rate=10', '-frames:v', '6'],
        ['-c:v', 'libx264', '-preset', 'ultrafast', '-x264-params', 'slices=2:keyint=3:min-keyint=3:scenecut=0'],
        ['-f', 'h264', 'pipe:1'],
      ].flat(),
      { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
}

function nalTypes(unit: Buffer): number[] {
  const types: number[] = [];
  for (let i = 0; i + 4 < unit.length; i++)
    if (unit[i] === 0 && unit[i + 1] === 0 && unit[i + 2] === 0 && unit[i + 3] === 1)
      types.push(nalType(unit.subarray(i + 4)));
  return types;
}

describe('cutting Annex B into pictures', () => {
  it('gives one unit per picture, whatever the chunk sizes, with SPS and PPS on the key frames', async () => {
    const sample = await encodeSample();
    for (const chunk of [1, 7, 1000, sample.length]) {
      const splitter = new AnnexBSplitter();
      const units = [];
      for (let at = 0; at < sample.length; at += chunk) units.push(...splitter.push(sample.subarray(at, at + chunk)));
      units.push(...splitter.flush());
      expect(units.map((u) => u.key)).toEqual([true, false, false, true, false, false]);
      expect(nalTypes(units[0]!.data).filter((t) => t === 1 || t === 5)).toEqual([5, 5]); // both slices in one unit
      expect(units[0]?.sps && codecString(units[0].sps)).toMatch(/^avc1\.[0-9a-f]{6}$/);
      expect(Buffer.concat(units.map((u) => u.data)).length).toBeGreaterThan(sample.length * 0.95);
      expect(splitter.damaged).toBe(0);
    }
  });

  it('hands on the last picture when the stream pauses, without waiting for the next one', async () => {
    const sample = await encodeSample();
    const splitter = new AnnexBSplitter();
    const before = splitter.push(sample);
    expect(before).toHaveLength(5);
    expect(splitter.pending).toBe(true);
    expect(splitter.flush()).toHaveLength(1);
    expect(splitter.pending).toBe(false);
  });

  it('notices bytes that continue a picture it already handed on', async () => {
    const sample = await encodeSample();
    const splitter = new AnnexBSplitter();
    splitter.push(sample.subarray(0, sample.length - 40));
    splitter.flush();
    splitter.push(sample.subarray(sample.length - 40));
    expect(splitter.damaged).toBe(1);
  });

  it('keeps what came before any start code as the text a failing screenrecord printed', () => {
    const splitter = new AnnexBSplitter();
    expect(splitter.push(Buffer.from('/system/bin/sh: screenrecord: not found\n'))).toEqual([]);
    expect(splitter.flush()).toEqual([]);
    expect(splitter.preamble).toContain('screenrecord: not found');
  });

  it('puts the parameter sets in front of a key frame that lacks them', () => {
    const sps = Buffer.from([0x67, 0x42, 0xc0, 0x1f]);
    const pps = Buffer.from([0x68, 0xce]);
    const idr = { data: Buffer.from([0, 0, 0, 1, 0x65, 0x88]), key: true, sps: undefined, pps: undefined };
    const whole = withParameterSets(idr, sps, pps);
    expect(nalTypes(whole.data)).toEqual([7, 8, 5]);
    expect(codecString(sps)).toBe('avc1.42c01f');
    const delta = { ...idr, key: false, data: Buffer.from([0, 0, 0, 1, 0x41, 0x9a]) };
    expect(withParameterSets(delta, sps, pps)).toBe(delta);
  });
});

describe('the size and bit rate asked of screenrecord', () => {
  it('covers the canvas with the display’s exact aspect and sides that are multiples of 8', () => {
    expect(chooseVideoSize({ width: 720, height: 1280 }, { width: 390, height: 644 })).toEqual({
      width: 432,
      height: 768,
    });
    expect(chooseVideoSize({ width: 1080, height: 2400 }, { width: 390, height: 644 })).toEqual({
      width: 360,
      height: 800,
    });
    expect(chooseVideoSize({ width: 720, height: 1280 }, { width: 4000, height: 4000 })).toEqual({
      width: 720,
      height: 1280,
    });
  });

  it('stays within 1920 px on the long side, as most phones’ encoders need', () => {
    const size = chooseVideoSize({ width: 1440, height: 3200 }, { width: 2000, height: 4000 });
    expect(Math.max(size.width, size.height)).toBeLessThanOrEqual(1920);
    expect(size.width / size.height).toBeCloseTo(1440 / 3200, 2);
  });

  it('spends less of a Wi-Fi link than of a cable on the picture', () => {
    expect(linkOf('R58M123ABC')).toBe('usb');
    expect(linkOf('192.168.1.20:5555')).toBe('network');
    expect(linkOf('127.0.0.1:40123')).toBe('local');
    expect(linkOf('emulator-5554')).toBe('local');
    const big = { width: 1080, height: 2400 };
    expect(chooseBitRate(big, 'network')).toBe(4_000_000);
    expect(chooseBitRate(big, 'usb')).toBeGreaterThan(chooseBitRate(big, 'network'));
    expect(chooseBitRate({ width: 144, height: 256 }, 'usb')).toBe(1_000_000);
  });
});

describe('a viewer’s window', () => {
  it('stops sending at the window and then skips to the next key frame that fits', () => {
    const w = new ViewerWindow({ maxBytes: 1000, maxFrames: 3 });
    expect(w.offer(1, 100, true)).toBe(true);
    expect(w.offer(2, 100, false)).toBe(true);
    expect(w.offer(3, 100, false)).toBe(true);
    expect(w.offer(4, 100, false)).toBe(false); // full: four frames would be in flight
    w.ack(3);
    expect(w.offer(5, 100, false)).toBe(false); // room again, but 5 depends on 4, which was never sent
    expect(w.offer(6, 100, true)).toBe(true);
    expect(w.skipped).toBe(2);
  });

  it('counts bytes as well as frames, and still lets a large key frame through to an idle viewer', () => {
    const w = new ViewerWindow({ maxBytes: 1000, maxFrames: 100 });
    expect(w.offer(1, 5000, true)).toBe(true);
    expect(w.offer(2, 10, false)).toBe(false);
    expect(w.bytesInFlight).toBe(5000);
    w.ack(2);
    expect(w.bytesInFlight).toBe(0);
  });

  it('makes a fresh viewer wait for a key frame without counting that as skipped', () => {
    const w = new ViewerWindow();
    expect(w.offer(7, 10, false)).toBe(false);
    expect(w.offer(8, 10, true)).toBe(true);
    expect(w.skipped).toBe(0);
  });
});

describe('mapping a pointer to the device', () => {
  it('maps through a letterboxed video to the device pixel under the pointer', () => {
    // A landscape display (rotated phone) letterboxed into a portrait video, drawn in a 400×800 box.
    const box = { left: 0, top: 0, width: 400, height: 800 };
    const picture = containedRect(box, { width: 432, height: 768 });
    const display = { width: 1280, height: 720 };
    const content = containedRect(picture, display);
    const at = { x: content.left + content.width / 4, y: content.top + content.height / 2 };
    expect(classifyGesture({ client: at, at: 0 }, { client: at, at: 10 }, picture, display)).toEqual({
      kind: 'tap',
      x: 320,
      y: 360,
    });
    const onBar = { x: 200, y: content.top - 5 };
    expect(classifyGesture({ client: onBar, at: 0 }, { client: onBar, at: 10 }, picture, display)).toBeUndefined();
  });
});

describe('the display’s geometry', () => {
  it('reads the size in the current rotation, the override size first', () => {
    expect(parseGeometry('Physical size: 1080x2400\n')).toEqual({ width: 1080, height: 2400, rotation: 0 });
    expect(
      parseGeometry(
        'Physical size: 1080x2400\nOverride size: 720x1600\n  Viewport INTERNAL: displayId=0, ' +
          'uniqueId=local:4619827259835644672, port=129, orientation=1, logicalFrame=[0, 0, 1600, 720]\n',
      ),
    ).toEqual({ width: 1600, height: 720, rotation: 1 });
    expect(parseGeometry('Physical size: 1080x1920\n    SurfaceOrientation: 3\n')).toEqual({
      width: 1920,
      height: 1080,
      rotation: 3,
    });
    expect(parseGeometry('wm: not found')).toBeUndefined();
  });
});

describe('the latency probe', () => {
  it('reads back the counter and clock it was drawn with, and refuses a damaged one', () => {
    const cells = probeCells(COUNTER_MODULO + 1234, TIME_MODULO * 3 + 98765);
    const at = (col: number, row: number) => (cells[row * 22 + col] ? 255 : 0);
    expect(readProbe(at)).toEqual({ counter: 1234, time: 98765 });
    expect(readProbe((col, row) => (col === 5 && row === 1 ? 255 - at(col, row) : at(col, row)))).toBeUndefined();
    expect(readProbe(() => 0)).toBeUndefined();
  });

  it('unwraps the counter and the clock across their wrap', () => {
    expect(unwrapCounter(3, COUNTER_MODULO - 2)).toBe(COUNTER_MODULO + 3);
    expect(unwrapCounter(COUNTER_MODULO - 1, COUNTER_MODULO + 2)).toBe(COUNTER_MODULO - 1);
    expect(probeAge(TIME_MODULO - 10, TIME_MODULO * 5 + 30)).toBe(40);
  });
});

describe('a throttled link', () => {
  class ManualClock implements PipeClock {
    t = 0;
    private timers: { at: number; fn: () => void }[] = [];
    now = () => this.t;
    setTimeout = (fn: () => void, ms: number) => {
      const timer = { at: this.t + ms, fn };
      this.timers.push(timer);
      return timer;
    };
    clearTimeout = (handle: unknown) => {
      this.timers = this.timers.filter((t) => t !== handle);
    };
    advance(ms: number) {
      const end = this.t + ms;
      for (;;) {
        const next = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        this.timers = this.timers.filter((t) => t !== next);
        this.t = next.at;
        next.fn();
      }
      this.t = end;
    }
  }

  it('delivers in order at its rate, each chunk its latency after the link carried it', () => {
    const clock = new ManualClock();
    const arrived: { bytes: number; at: number }[] = [];
    const pipe = new ThrottledPipe(
      (c) => arrived.push({ bytes: c.length, at: clock.now() }),
      () => ({ bytesPerSecond: 1_000_000, latencyMs: 5 }),
      clock,
    );
    pipe.push(Buffer.alloc(100_000)); // 100 ms on the wire
    pipe.push(Buffer.alloc(50_000)); // 50 ms more
    clock.advance(104);
    expect(arrived).toEqual([]);
    clock.advance(2);
    expect(arrived).toEqual([{ bytes: 100_000, at: 105 }]);
    clock.advance(100);
    expect(arrived.map((a) => a.at)).toEqual([105, 155]);
  });

  it('passes bytes straight through when it is not throttled', () => {
    const got: number[] = [];
    new ThrottledPipe(
      (c) => got.push(c.length),
      () => undefined,
    ).push(Buffer.alloc(3));
    expect(got).toEqual([3]);
  });
});

describe('the wire', () => {
  it('carries a frame’s kind, key flag, sequence number, time and bytes', () => {
    const frame = {
      kind: 'h264' as const,
      key: true,
      seq: 4_000_000_000,
      at: 1_796_000_000_123.5,
      data: new Uint8Array([1, 2, 3]),
    };
    expect(decodeFrame(encodeFrame(frame))).toEqual(frame);
    expect(decodeFrame(new Uint8Array(8))).toBeUndefined();
  });
});
