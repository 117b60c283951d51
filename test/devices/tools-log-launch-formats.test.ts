/**
 * Rule: logcat and app_launch give the right answer for the formats a real phone prints, not only
 * for the simulator's: `logcat -t N` counts the last N entries before the tag, level and -e filters
 * (logd/LogReader.cpp, logcat/logcat.cpp), so a sparse tag needs a wider window; monkey echoes its
 * arguments (`  bash arg: PKG`, ` arg: "PKG"`) and prints its abort line on standard output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VirtualDevice } from '../../tools/devices/virtual';
import { createInstalledApp } from '../../tools/devices/virtual/phone/apps/installed';
import { parseApk } from '../../tools/devices/virtual/phone/packages';
import { type DeviceLab, jsonOf, startDeviceLab, textOf } from './device-lab';

let lab: DeviceLab;
let device: VirtualDevice;

beforeAll(async () => {
  lab = await startDeviceLab();
  device = lab.devices[0]!;
});

afterAll(async () => {
  await lab?.close();
});

const phoneSays = async (command: string): Promise<string> =>
  (await lab.service.manager.shell(device.serial, command)).output;

describe('logcat', () => {
  it('returns the last N lines of a tag whose lines are older than the last N entries', async () => {
    for (let i = 0; i < 5; i++) device.phone.log.add('I', 'Sparse', `sparse ${i}`, 4300);
    for (let i = 0; i < 200; i++) device.phone.log.add('I', 'Noise', `noise ${i}`, 4301);
    // What the phone answers the narrow question: nothing of the tag among the last 5 entries.
    expect(await phoneSays('logcat -d -v threadtime -t 5 -s Sparse:V')).toBe('');
    const out = textOf(await lab.call('logcat', { tag: 'Sparse', lines: 3 }));
    expect(out).toMatch(/^3 log line\(s\) from /);
    expect(out).toMatch(/sparse 2\n.*sparse 3\n.*sparse 4$/);
  });

  it('widens the window for a level or a regex too, and says how many lines it found', async () => {
    device.phone.log.add('E', 'Rare', 'rare error', 4302);
    for (let i = 0; i < 300; i++) device.phone.log.add('I', 'Noise', `more noise ${i}`, 4301);
    const errors = jsonOf(await lab.call('logcat', { level: 'E', lines: 5 }));
    expect(errors).toMatchObject({ lines: 1 });
    expect(textOf(await lab.call('logcat', { level: 'E', lines: 5 }))).toMatch(
      /^1 log line\(s\).*\n.* E Rare +: rare error$/,
    );
    expect(textOf(await lab.call('logcat', { grep: '^sparse [0-4]$', lines: 2 }))).toMatch(/sparse 3\n.*sparse 4$/);
  });
});

describe('app_launch', () => {
  it('launches an app whose name contains "aborted": monkey echoes the name, the abort line is whole', async () => {
    const info = parseApk('aborted.apk', Buffer.from('package=com.acme.aborted\n'));
    if (typeof info === 'string') throw new Error(info);
    device.phone.packages.put(createInstalledApp(info), device.phone.now());
    const monkey = await phoneSays('monkey -p com.acme.aborted -c android.intent.category.LAUNCHER 1');
    expect(monkey).toContain('  bash arg: com.acme.aborted\n');
    expect(monkey).toContain('Events injected: 1\n');
    await phoneSays('input keyevent KEYCODE_HOME');
    expect(textOf(await lab.call('app_launch', { packageName: 'com.acme.aborted' }))).toMatch(
      /^Launched com\.acme\.aborted\./,
    );
  });

  it("says NOT_FOUND from monkey's abort line on standard output", async () => {
    const monkey = await lab.service.manager.shell(
      device.serial,
      'monkey -p com.nobody.here -c android.intent.category.LAUNCHER 1 2>/dev/null',
    );
    expect(monkey.output).toMatch(/\*\* No activities found to run, monkey aborted\.\n$/);
    const result = await lab.call('app_launch', { packageName: 'com.nobody.here' });
    expect(!result.ok && result.error.code).toBe('NOT_FOUND');
  });
});
