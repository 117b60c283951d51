/**
 * Rule: the virtual phone (the default profile, Android 15) answers `screenrecord
 * --output-format=h264 … -` as that Android's screenrecord does, through the real adb server:
 * H.264 of the asked size from its own encoder (ffmpeg), its frame counter advancing in the
 * picture, ending at the time limit; it refuses bad options in screenrecord's words and with its
 * statuses, and is missing, too old for `--output-format` or without an encoder when set so. Every
 * recorder gets every frame the phone composes, and screencap sees the same display. (Each
 * profile's own Android: screenrecord-profiles.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProbeReading, probeGeometry, readProbe } from '../../shared/screen-probe';
import { compositorOf } from '../../tools/devices/virtual/display/compositor';
import { type VirtualDevice, recorderSettings } from '../../tools/devices/virtual';
import { ProbeDecoder, missingCounters, type Size } from '../support/probe-decoder';
import { type DeviceLab, startDeviceLab } from './device-lab';
import { PNG } from 'pngjs';

let lab: DeviceLab;
let device: VirtualDevice;
// The lab’s phone is the default profile (pixel, 1080×2400).
const DISPLAY = { width: 1080, height: 2400 };

beforeAll(async () => {
  lab = await startDeviceLab({ commandTimeoutMs: 30_000 });
  device = lab.devices[0]!;
});
afterAll(async () => {
  await lab?.close();
});

async function record(args: string): Promise<Buffer> {
  const { data } = await lab.service.manager.exec(device.serial, `screenrecord ${args}`, {
    timeoutMs: 60_000,
    maxBytes: 64 * 1024 * 1024,
  });
  return data;
}

async function probesIn(h264: Buffer, video: Size): Promise<(ProbeReading | undefined)[]> {
  const decoder = new ProbeDecoder(video, DISPLAY);
  decoder.push(h264);
  await decoder.close();
  return decoder.readings;
}

async function shell(command: string): Promise<{ output: string; exitCode: number | null }> {
  const { output, exitCode } = await lab.service.manager.shell(device.serial, command, { timeoutMs: 30_000 });
  return { output, exitCode };
}

describe('screenrecord on the virtual phone', () => {
  it('streams H.264 of the asked size to stdout until the time limit, its counter advancing each frame', async () => {
    const h264 = await record('--output-format=h264 --size 360x640 --bit-rate 2M --time-limit 2 -');
    expect(h264.subarray(0, 4)).toEqual(Buffer.from([0, 0, 0, 1]));
    const readings = await probesIn(h264, { width: 360, height: 640 });
    expect(readings.length).toBeGreaterThan(5);
    expect(readings.every((r) => r !== undefined)).toBe(true);
    const counters = readings.map((r) => r!.counter);
    expect(counters).toEqual([...counters].sort((a, b) => a - b));
    expect(missingCounters(counters)).toEqual([]);
    expect(compositorOf(device.phone).recorders).toBe(0);
  });

  it('records the display at its own size when no size is given, and letterboxes another aspect', async () => {
    const whole = await record('--output-format=h264 --time-limit 1 -');
    expect((await probesIn(whole, DISPLAY)).filter(Boolean).length).toBeGreaterThan(0);
    const square = await record('--output-format=h264 --size 400x400 --time-limit 1 -');
    expect((await probesIn(square, { width: 400, height: 400 })).filter(Boolean).length).toBeGreaterThan(0);
  });

  it('refuses bad options with the words and status of Android 15’s screenrecord', async () => {
    const cases: [string, string, number][] = [
      ['--output-format=h264 --size big -', "Invalid size 'big', must be width x height\n", 2],
      ['--output-format=h264 --size 0x640 -', 'Invalid size 0x640, width and height may not be zero\n', 2],
      ['--output-format=h264 --time-limit -1 -', 'Time limit -1s outside acceptable range [0,4294967295] seconds\n', 2],
      ['--output-format=h264 --time-limit soon -', 'Error parsing time limit argument\n', 2],
      ['--output-format=h264 --bit-rate 50 -', 'Bit rate 50bps outside acceptable range [100000,200000000]\n', 2],
      ['--output-format=h264 --bit-rate 500k -', 'Unrecognized value: 500k\n', 2],
      ['--output-format=h264 --display-id 42 -', 'Invalid physical display ID\n', 2],
      ['--output-format=h264', 'Must specify output file (see --help).\n', 2],
      ['--output-format=avi -', "Unknown format 'avi'\n", 2],
      ['--frobnicate -', "screenrecord: unrecognized option `--frobnicate'\n", 2],
      ['--output-format=h264 --size', "screenrecord: option `--size' requires an argument\n", 2],
      ['--verbose=yes -', "screenrecord: option `--verbose' doesn't allow an argument\n", 2],
      // main() returns the status_t: BAD_VALUE (-22) leaves 234 to the shell.
      [
        '--output-format=h264 --size 361x640 -',
        'ERROR: unable to configure video/avc codec at 361x640 (err=-22)\n',
        234,
      ],
      ['--output-format=h264 --verbose -', "ERROR: verbose output and '-' not compatible", 255],
    ];
    for (const [args, message, status] of cases) {
      const r = await shell(`screenrecord ${args}`);
      expect(r.output, args).toBe(message);
      expect(r.exitCode, args).toBe(status);
    }
  });

  it('takes a time limit of 0 (none) or past 180 s, as Android 14+ does, and prints its usage for --help', async () => {
    // Options are read before the file operand is looked for: a taken limit reaches that check.
    expect((await shell('screenrecord --time-limit 0')).output).toBe('Must specify output file (see --help).\n');
    expect((await shell('screenrecord --time-limit 3600')).output).toBe('Must specify output file (see --help).\n');
    const help = await shell('screenrecord --help');
    expect(help.exitCode).toBe(0);
    expect(help.output).toContain('Android screenrecord v1.3.  Records the device');
    expect(help.output).toContain('Default is 180. Set to 0\n    to remove the time limit.');
    expect(help.output).toContain('--display-id ID');
  });

  it('is missing, too old for --output-format, or without an encoder, as phones are', async () => {
    const settings = recorderSettings(device.phone);
    const before = settings.support;
    try {
      settings.support = 'missing';
      expect(await shell('screenrecord --output-format=h264 -')).toEqual({
        output: '/system/bin/sh: screenrecord: not found\n',
        exitCode: 127,
      });
      settings.support = 'no-h264-output';
      expect(await shell('screenrecord --output-format=h264 -')).toEqual({
        output: "screenrecord: unrecognized option `--output-format=h264'\n",
        exitCode: 2,
      });
      settings.support = 'encoder-fails';
      // UNKNOWN_ERROR is INT32_MIN, whose low byte is 0: the shell sees success.
      expect(await shell('screenrecord --output-format=h264 -')).toEqual({
        output: 'ERROR: unable to create video/avc codec instance\n',
        exitCode: 0,
      });
    } finally {
      settings.support = before;
    }
  });

  it('gives every recorder every frame, and screencap the frame the recorders got', async () => {
    const [a, b] = await Promise.all([
      record('--output-format=h264 --size 360x640 --time-limit 5 -'),
      (async () => {
        await new Promise((r) => setTimeout(r, 500));
        const png = PNG.sync.read(
          (await lab.service.manager.exec(device.serial, 'screencap -p', { maxBytes: 8e6 })).data,
        );
        const g = probeGeometry(png.width);
        const shot = readProbe((col, row) => {
          const x = Math.floor(g.left + (col + 0.5) * g.cell);
          const y = Math.floor(g.top + (row + 0.5) * g.cell);
          return png.data[(y * png.width + x) * 4] ?? 0;
        });
        return { shot, video: await record('--output-format=h264 --size 360x640 --time-limit 1 -') };
      })(),
    ]);
    const first = (await probesIn(a, { width: 360, height: 640 })).map((r) => r!.counter);
    const second = (await probesIn(b.video, { width: 360, height: 640 })).map((r) => r!.counter);
    expect(missingCounters(first)).toEqual([]);
    // The second recorder ran inside the first one's time: all its frames are frames the first one got.
    expect(second.filter((c) => !first.includes(c))).toEqual([]);
    expect(b.shot).toBeDefined();
    expect(b.shot!.counter).toBeLessThanOrEqual(Math.max(...first));
    expect(b.shot!.counter).toBeGreaterThanOrEqual(Math.min(...first));
  });
});
