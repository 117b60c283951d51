/**
 * Rule: on every phone profile, through the real adb server, the live screen is that phone's own:
 * screenrecord answers as the profile's Android does (its version, its options, its limits, its
 * words), records the display that is on at its size (Android 14 covers every display of a
 * foldable), and the shared stream is H.264 at the profile's size and aspect, from `wm size`. A
 * foldable that folds while watched is shown at its outer display's size. A phone whose
 * screenrecord lacks `--output-format` (Android 4.4's) is shown as screenshots, and the viewer is
 * told screenrecord's own words for why.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScreenStatus, WireFrame } from '../../shared/screen-wire';
import { ScreenHub } from '../../tools/devices';
import {
  type DeviceProfile,
  PROFILE_NAMES,
  PROFILES,
  type ProfileName,
  type VirtualDevice,
} from '../../tools/devices/virtual';
import { ProbeDecoder, type Size } from '../support/probe-decoder';
import { type DeviceLab, startDeviceLab } from './device-lab';

/** The legacy phone as it shipped, on Android 4.4 (SDK 19): its screenrecord records mp4 files only. */
const KITKAT: DeviceProfile = { ...PROFILES.legacy, release: '4.4.4', sdk: 19, buildId: 'KXC21.5-40' };

let lab: DeviceLab;
const phones = new Map<ProfileName | 'kitkat', VirtualDevice>();

beforeAll(async () => {
  lab = await startDeviceLab({ devices: 0, commandTimeoutMs: 30_000 });
  for (const name of PROFILE_NAMES) phones.set(name, await lab.addDevice(name));
  phones.set('kitkat', await lab.addDevice(KITKAT));
}, 120_000);
afterAll(async () => {
  await lab?.close();
});

const phone = (name: ProfileName | 'kitkat') => phones.get(name)!;
const displayOf = (name: ProfileName | 'kitkat'): Size => {
  const { width, height } = phone(name).phone.screen;
  return { width, height };
};

async function shell(name: ProfileName | 'kitkat', command: string) {
  const { output, exitCode } = await lab.service.manager.shell(phone(name).serial, command, { timeoutMs: 30_000 });
  return { output, exitCode };
}

async function record(name: ProfileName, args: string): Promise<Buffer> {
  const { data } = await lab.service.manager.exec(phone(name).serial, `screenrecord ${args}`, {
    timeoutMs: 60_000,
    maxBytes: 64 * 1024 * 1024,
  });
  return data;
}

/** The picture size an H.264 stream's SPS announces, as ffprobe reads it. */
function videoSize(h264: Buffer): Size {
  const probe = spawnSync(
    'ffprobe',
    ['-v', 'error', '-f', 'h264', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', '-i', 'pipe:0'],
    { input: h264 },
  );
  const [width, height] = String(probe.stdout).trim().split(',').map(Number);
  return { width: width ?? 0, height: height ?? 0 };
}

/** A viewer of `name`'s screen that acknowledges each frame. */
function watch(hub: ScreenHub, name: ProfileName | 'kitkat', canvas = { maxWidth: 400, maxHeight: 800 }) {
  const frames: WireFrame[] = [];
  const statuses: ScreenStatus[] = [];
  const viewer = hub.watch(
    { serial: phone(name).serial, ...canvas },
    {
      status: (s) => statuses.push(s),
      frame: (f) => {
        frames.push(f);
        queueMicrotask(() => viewer.ack(f.seq));
        return true;
      },
    },
  );
  return { frames, statuses, viewer, last: () => statuses.at(-1) };
}

async function withHub<T>(run: (hub: ScreenHub) => Promise<T>, geometryPollMs = 0): Promise<T> {
  const hub = new ScreenHub(lab.service.manager, { geometryPollMs });
  try {
    return await run(hub);
  } finally {
    hub.close();
  }
}

describe('screenrecord on each profile’s Android', () => {
  it('says its version in --help: v1.3 from Android 11, v1.2 on Android 9, none on 4.4', async () => {
    const versions: Record<string, string> = {};
    for (const name of [...PROFILE_NAMES, 'kitkat'] as const) {
      const help = await shell(name, 'screenrecord --help');
      expect(help.exitCode, name).toBe(0);
      versions[name] = /Android screenrecord v(\d\.\d)\./.exec(help.output)?.[1] ?? 'none';
    }
    expect(versions).toEqual({
      pixel: '1.3',
      samsung: '1.3',
      xiaomi: '1.3',
      legacy: '1.2',
      foldable: '1.3',
      kitkat: 'none',
    });
  });

  it('refuses what that Android’s screenrecord refuses, in its words', async () => {
    const cases: [ProfileName | 'kitkat', string, string][] = [
      // Before Android 14 the limit is 1 to 180 s; from 14, 0 (none) and more are taken.
      ['samsung', '--time-limit 0 -', 'Time limit 0s outside acceptable range [1,180]\n'],
      ['legacy', '--time-limit 181 -', 'Time limit 181s outside acceptable range [1,180]\n'],
      ['xiaomi', '--time-limit 181', 'Must specify output file (see --help).\n'],
      // --display-id since Android 11, webm since 10.
      ['legacy', '--display-id 0 -', "screenrecord: unrecognized option `--display-id'\n"],
      ['legacy', '--output-format=webm -', "Unknown format 'webm'\n"],
      ['samsung', '--display-id 7 -', 'Invalid physical display ID\n'],
      // Android 4.4: no --output-format, and the bit rate is read as plain bits (atoi).
      ['kitkat', '--output-format=h264 -', "screenrecord: unrecognized option `--output-format=h264'\n"],
      ['kitkat', '--bit-rate 4M x.mp4', 'Bit rate 4bps outside acceptable range [100000,100000000]\n'],
    ];
    for (const [name, args, words] of cases) {
      const r = await shell(name, `screenrecord ${args}`);
      expect(r.output, `${name}: ${args}`).toBe(words);
      expect(r.exitCode, `${name}: ${args}`).toBe(2);
    }
  });

  it('records the display that is on at its own size; Android 14 on a foldable covers both displays', async () => {
    const sizes: Record<string, Size> = {};
    for (const name of PROFILE_NAMES)
      sizes[name] = videoSize(await record(name, '--output-format=h264 --time-limit 1 -'));
    expect(sizes).toEqual({
      pixel: { width: 1080, height: 2400 },
      samsung: { width: 1080, height: 2340 },
      xiaomi: { width: 1220, height: 2712 },
      legacy: { width: 720, height: 1440 },
      // getMaxDisplaySize(): the widest (inner, 2208) and the tallest (outer, 2092) display.
      foldable: { width: 2208, height: 2092 },
    });
  });

  it('on a foldable, records a display by its id, and refuses one that is off', async () => {
    const [inner, outer] = PROFILES.foldable.displays;
    const h264 = await record('foldable', `--output-format=h264 --display-id ${inner!.physicalId} --time-limit 1 -`);
    expect(videoSize(h264)).toEqual({ width: 2208, height: 1840 });
    const off = await shell('foldable', `screenrecord --output-format=h264 --display-id ${outer!.physicalId} -`);
    expect(off).toEqual({ output: 'ERROR: INVALID_LAYER_STACK, please check your display state.\n', exitCode: 218 });
  });
});

describe('the live screen on each profile', () => {
  for (const name of PROFILE_NAMES)
    it(`is H.264 at the ${name} profile’s size and aspect, its counter readable`, () =>
      withHub(async (hub) => {
        const v = watch(hub, name);
        await expect.poll(() => v.frames.length, { timeout: 30_000 }).toBeGreaterThan(5);
        const status = v.last()!;
        const display = displayOf(name);
        expect(status).toMatchObject({ mode: 'h264', display });
        const video = status.video!;
        // Smaller than the display (the canvas is), of its aspect to within the even rounding of a side.
        expect(video.width).toBeLessThan(display.width);
        expect(Math.abs(video.width / video.height - display.width / display.height)).toBeLessThan(0.01);
        expect(phone(name).commandLog.at(-1)).toBe(
          `screenrecord --output-format=h264 --size ${video.width}x${video.height} ` +
            `--bit-rate ${status.bitRate} --time-limit 180 -`,
        );
        const decoder = new ProbeDecoder(video, display);
        for (const f of v.frames) decoder.push(f.data);
        v.viewer.close();
        await decoder.close();
        expect(decoder.readings.filter(Boolean).length).toBeGreaterThan(3);
      }));

  it('follows a foldable that folds: the outer display’s size, and a video of its aspect', () =>
    withHub(async (hub) => {
      const foldable = phone('foldable');
      try {
        const v = watch(hub, 'foldable');
        await expect.poll(() => v.last()?.mode, { timeout: 30_000 }).toBe('h264');
        expect(v.last()?.display).toEqual({ width: 2208, height: 1840 });
        foldable.phone.setFolded(true);
        await expect.poll(() => v.last()?.display, { timeout: 30_000 }).toEqual({ width: 1080, height: 2092 });
        const portrait = () => {
          const video = v.last()?.video;
          return video !== undefined && video.height > video.width;
        };
        await expect.poll(portrait, { timeout: 30_000 }).toBe(true);
        const frames = v.frames.length;
        await expect.poll(() => v.frames.length, { timeout: 30_000 }).toBeGreaterThan(frames + 5);
        v.viewer.close();
      } finally {
        foldable.phone.setFolded(false);
      }
    }, 300));

  it('is screenshots on Android 4.4, whose screenrecord lacks --output-format, with its words for why', () =>
    withHub(async (hub) => {
      const v = watch(hub, 'kitkat');
      await expect.poll(() => v.frames.length, { timeout: 30_000 }).toBeGreaterThan(1);
      expect(v.frames.every((f) => f.kind === 'png' && f.key)).toBe(true);
      expect(v.last()).toMatchObject({ mode: 'screencap', display: displayOf('kitkat') });
      expect(v.last()?.reason).toBe(
        'screenrecord cannot stream from this phone (screenrecord: ' +
          "unrecognized option `--output-format=h264'), so screenshots are sent.",
      );
      v.viewer.close();
    }));
});
