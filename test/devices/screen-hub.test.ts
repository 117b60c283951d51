/**
 * Rule: a phone's live screen is one stream shared by every viewer, through the real adb server.
 * It is H.264 from the phone's screenrecord, sized for the viewers' canvases and starting with a
 * key frame that carries its SPS and PPS; a viewer who joins later starts at a key frame too; the
 * stream goes on across screenrecord's time limit with no counter value missing beyond the
 * restart's few frames; where screenrecord is missing or fails it is screencap frames, with the
 * phone's own words for why; it stops when the last viewer leaves; and a viewer that acknowledges
 * nothing holds at most its window, then skips to the next key frame when it catches up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScreenStatus, WireFrame } from '../../shared/screen-wire';
import { type ScreenHubOptions, ScreenHub, type ScreenViewer } from '../../tools/devices';
import { compositorOf } from '../../tools/devices/virtual/display/compositor';
import { type RecorderSupport, type VirtualDevice, connectToAdb, recorderSettings } from '../../tools/devices/virtual';
import { ProbeDecoder, missingCounters } from '../support/probe-decoder';
import { type DeviceLab, startDeviceLab } from './device-lab';

let lab: DeviceLab;
let device: VirtualDevice;
// The lab's phone is the default profile (pixel, 1080×2400); a 360×640 canvas gets it at 4/15, the
// smallest scale that covers the canvas and keeps both sides whole multiples of 8.
const DISPLAY = { width: 1080, height: 2400 };
const VIDEO = { width: 288, height: 640 };

beforeAll(async () => {
  lab = await startDeviceLab({ commandTimeoutMs: 30_000 });
  device = lab.devices[0]!;
});
afterAll(async () => {
  await lab?.close();
});

/** A viewer that records what it gets and acknowledges each frame at once (unless told not to). */
function watch(
  hub: ScreenHub,
  canvas = { maxWidth: 360, maxHeight: 640 },
  opts: { ack?: boolean; h264?: boolean } = {},
) {
  const frames: WireFrame[] = [];
  const statuses: ScreenStatus[] = [];
  const viewer: ScreenViewer = hub.watch(
    { serial: device.serial, ...canvas, h264: opts.h264 ?? true },
    {
      status: (s) => statuses.push(s),
      frame: (f) => {
        frames.push(f);
        if (opts.ack !== false) queueMicrotask(() => viewer.ack(f.seq));
        return true;
      },
    },
  );
  return { frames, statuses, viewer, last: () => statuses.at(-1) };
}

const screenrecords = () => device.commandLog.filter((l) => l.startsWith('screenrecord ')).length;

function withHub<T>(opts: ScreenHubOptions, run: (hub: ScreenHub) => Promise<T>): Promise<T> {
  const hub = new ScreenHub(lab.service.manager, { geometryPollMs: 0, ...opts });
  return run(hub).finally(() => hub.close());
}

describe('the H.264 stream', () => {
  it('starts with a key frame carrying SPS and PPS, sized for the canvas, and says it is H.264', () =>
    withHub({}, async (hub) => {
      const v = watch(hub, { maxWidth: 360, maxHeight: 640 });
      await expect.poll(() => v.frames.length, { timeout: 30_000 }).toBeGreaterThan(5);
      expect(v.frames[0]).toMatchObject({ kind: 'h264', key: true });
      const types = [...v.frames[0]!.data.subarray(0, 64)].flatMap((b, i, all) =>
        all[i - 3] === 0 && all[i - 2] === 0 && all[i - 1] === 1 ? [b & 0x1f] : [],
      );
      expect(types.slice(0, 2)).toEqual([7, 8]);
      expect(v.last()).toMatchObject({
        mode: 'h264',
        display: DISPLAY,
        video: VIDEO,
        codec: expect.stringMatching(/^avc1\.[0-9a-f]{6}$/),
        reason: expect.stringContaining('screenrecord'),
      });
      expect(device.commandLog.at(-1)).toMatch(
        /^screenrecord --output-format=h264 --size 288x640 --bit-rate \d+ --time-limit 180 -$/,
      );
      v.viewer.close();
    }));

  it('is shared: a second viewer adds no screenrecord and starts at a key frame', () =>
    withHub({}, async (hub) => {
      const first = watch(hub);
      await expect.poll(() => first.frames.length, { timeout: 30_000 }).toBeGreaterThan(10);
      const before = screenrecords();
      const second = watch(hub, { maxWidth: 300, maxHeight: 500 });
      await expect.poll(() => second.frames.length, { timeout: 30_000 }).toBeGreaterThan(5);
      expect(second.frames[0]?.key).toBe(true);
      expect(screenrecords()).toBe(before);
      expect(compositorOf(device.phone).recorders).toBe(1);
      expect(hub.stats(device.serial)?.viewers).toHaveLength(2);
      second.viewer.close();
      first.viewer.close();
    }));

  it('goes on across screenrecord’s time limit, each run starting at a key frame, no counter value missing', () =>
    withHub({ timeLimitS: 3 }, async (hub) => {
      const decoder = new ProbeDecoder(VIDEO, DISPLAY);
      const v = watch(hub);
      const fed = new Set<number>();
      const feed = setInterval(() => {
        for (const f of v.frames) if (!fed.has(f.seq)) fed.add(f.seq) && decoder.push(f.data);
      }, 50);
      await expect
        .poll(() => hub.stats(device.serial)?.restarts ?? 0, { timeout: 60_000, interval: 200 })
        .toBeGreaterThanOrEqual(2);
      const frames = v.frames.length;
      await expect.poll(() => v.frames.length, { timeout: 20_000 }).toBeGreaterThan(frames + 10);
      v.viewer.close();
      clearInterval(feed);
      for (const f of v.frames) if (!fed.has(f.seq)) decoder.push(f.data);
      await decoder.close();
      const counters = decoder.readings.map((r) => r?.counter);
      expect(counters.every((c) => c !== undefined)).toBe(true);
      const restarts = hub.stats(device.serial)?.restarts ?? 2;
      expect(v.frames.filter((f) => f.key).length).toBeGreaterThan(restarts);
      // A switch may show a few frames twice (the new run started before the old one stopped), never a hole.
      expect(missingCounters(counters as number[]).length).toBeLessThanOrEqual(restarts * 2);
      expect(v.last()?.skipped).toBe(0);
      expect(screenrecords()).toBeGreaterThanOrEqual(3);
    }));

  it('stops screenrecord when the last viewer leaves', () =>
    withHub({}, async (hub) => {
      const a = watch(hub);
      const b = watch(hub);
      await expect.poll(() => a.frames.length + b.frames.length, { timeout: 30_000 }).toBeGreaterThan(10);
      a.viewer.close();
      expect(hub.watchedPhones).toBe(1);
      b.viewer.close();
      expect(hub.watchedPhones).toBe(0);
      await expect.poll(() => compositorOf(device.phone).recorders, { timeout: 20_000 }).toBe(0);
      const runs = screenrecords();
      const got = b.frames.length;
      await lab.call('get_time');
      await lab.call('get_time');
      expect(screenrecords()).toBe(runs);
      expect(b.frames.length).toBe(got);
    }));
});

describe('a phone that drops off', () => {
  it('is said to be offline (not to lack screenrecord), and streams H.264 again once it is back', () =>
    withHub({}, async (hub) => {
      const v = watch(hub);
      await expect.poll(() => v.frames.length, { timeout: 30_000 }).toBeGreaterThan(5);
      device.faults = { refuseConnections: true };
      device.unplug();
      await expect.poll(() => v.last()?.mode, { timeout: 30_000 }).toBe('failed');
      expect(v.last()?.reason).toMatch(/^The phone is offline; its screen comes back when it reconnects\./);
      const before = v.frames.length;
      device.faults = {};
      await connectToAdb(device);
      await expect.poll(() => v.frames.length, { timeout: 30_000 }).toBeGreaterThan(before + 5);
      expect(v.frames[before]?.key).toBe(true);
      expect(v.last()).toMatchObject({ mode: 'h264' });
      v.viewer.close();
    }));
});

describe('a viewer that falls behind', () => {
  it('holds at most its window while it acknowledges nothing, and resumes at a key frame', () =>
    withHub({ window: { maxBytes: 4 * 1024 * 1024, maxFrames: 10 } }, async (hub) => {
      const v = watch(hub, undefined, { ack: false });
      await expect
        .poll(() => hub.stats(device.serial)?.viewers[0]?.skipped ?? 0, { timeout: 30_000 })
        .toBeGreaterThan(20);
      const stats = hub.stats(device.serial)!;
      expect(stats.viewers[0]?.framesInFlight).toBe(10);
      expect(v.frames).toHaveLength(10);
      expect(stats.frames).toBeGreaterThan(30);
      v.viewer.ack(v.frames.at(-1)!.seq);
      await expect.poll(() => v.frames.length, { timeout: 30_000 }).toBeGreaterThan(10);
      expect(v.frames[10]?.key).toBe(true);
      v.viewer.close();
    }));
});

describe('when screenrecord cannot stream', () => {
  const cases: [RecorderSupport, string][] = [
    ['missing', 'screenrecord: not found'],
    ['no-h264-output', "unrecognized option `--output-format=h264'"],
    ['encoder-fails', 'ERROR: unable to create video/avc codec instance'],
  ];
  for (const [support, words] of cases)
    it(`sends screencap frames and says why (${support})`, () =>
      withHub({}, async (hub) => {
        const before = recorderSettings(device.phone).support;
        recorderSettings(device.phone).support = support;
        try {
          const v = watch(hub);
          await expect.poll(() => v.frames.length, { timeout: 30_000 }).toBeGreaterThan(1);
          expect(v.frames.every((f) => f.kind === 'png' && f.key)).toBe(true);
          expect(v.last()).toMatchObject({ mode: 'screencap', display: DISPLAY });
          expect(v.last()?.reason).toContain(words);
          expect(v.last()?.reason).toContain('screenshots are sent');
          v.viewer.close();
        } finally {
          recorderSettings(device.phone).support = before;
        }
      }));

  it('sends screencap frames when a viewer’s page cannot decode H.264, and says so', () =>
    withHub({}, async (hub) => {
      const v = watch(hub, undefined, { h264: false });
      await expect.poll(() => v.frames.length, { timeout: 30_000 }).toBeGreaterThan(1);
      expect(v.frames.every((f) => f.kind === 'png')).toBe(true);
      expect(v.last()?.reason).toContain('cannot decode H.264');
      expect(compositorOf(device.phone).recorders).toBe(0);
      v.viewer.close();
    }));

  it('says so at once for a device that is not attached', () =>
    withHub({}, async (hub) => {
      const statuses: ScreenStatus[] = [];
      hub.watch(
        { serial: 'no-such-phone', maxWidth: 100, maxHeight: 100 },
        { status: (s) => statuses.push(s), frame: () => true },
      );
      expect(statuses).toEqual([
        expect.objectContaining({ mode: 'failed', reason: "No device 'no-such-phone' is attached." }),
      ]);
      expect(hub.watchedPhones).toBe(0);
    }));
});
