/**
 * Rule (docs/architecture.md#tool-families, system and utility families): get_device_info,
 * get_set_settings, control_media, clipboard, get_time, logcat, get_location and notification_read
 * read and change the device through the real adb server; logcat output is bounded; reading a
 * setting never waits for a person while changing one always asks (and never switches adb off); bad
 * inputs are model-readable errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalDecision } from '../../tools/core/permission';
import type { CommandApprovalRequest } from '../../tools/devices';
import type { VirtualDevice } from '../../tools/devices/virtual';
import { type DeviceLab, jsonOf, startDeviceLab, textOf } from './device-lab';

let lab: DeviceLab;
let device: VirtualDevice;
const asked: CommandApprovalRequest[] = [];
let answer: ApprovalDecision = { decision: 'approve_once' };

beforeAll(async () => {
  lab = await startDeviceLab({
    approveCommand: async (request) => {
      asked.push(request as CommandApprovalRequest);
      return answer;
    },
  });
  device = lab.devices[0]!;
});

afterAll(async () => {
  await lab?.close();
});

describe('get_device_info', () => {
  it('reports model, Android version, screen and battery', async () => {
    const info = jsonOf(await lab.call('get_device_info'));
    expect(info).toMatchObject({
      serial: device.serial,
      model: 'Pixel 8',
      manufacturer: 'Google',
      androidVersion: '15',
      sdk: 35,
      abi: 'arm64-v8a',
      screen: { width: 1080, height: 2400, density: 420 },
      battery: { level: 87, scale: 100, usbPowered: true },
    });
  });
});

describe('get_set_settings', () => {
  it('is HIGH risk and self-gated: reads never ask, a change asks a person first', async () => {
    const tool = lab.registry.get('get_set_settings')!;
    expect(tool.metadata.risk).toBe('HIGH');
    expect(tool.selfGated).toBe(true);
    asked.length = 0;
    await lab.call('get_set_settings', { action: 'get', namespace: 'system', key: 'screen_brightness' });
    await lab.call('get_set_settings', { action: 'list', namespace: 'system' });
    expect(asked).toEqual([]);
    await lab.call('get_set_settings', { action: 'put', namespace: 'system', key: 'font_scale', value: '1.1' });
    expect(asked.map((r) => r.command)).toEqual(['settings put system font_scale 1.1']);
  });

  it('leaves the setting unchanged when the person denies the change', async () => {
    answer = { decision: 'deny', reason: 'keep it' };
    const denied = await lab.call('get_set_settings', {
      action: 'put',
      namespace: 'system',
      key: 'font_scale',
      value: '2.0',
    });
    answer = { decision: 'approve_once' };
    expect(!denied.ok && denied.error).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('keep it'),
    });
    expect(device.phone.services.settings.system.get('font_scale')).toBe('1.1');
  });

  it('asks for the key when an action needs one, and for a value to put', async () => {
    const noKey = await lab.call('get_set_settings', { action: 'get', namespace: 'system' });
    expect(!noKey.ok && noKey.error.data?.fields).toEqual(['key']);
    const noValue = await lab.call('get_set_settings', { action: 'put', namespace: 'system', key: 'font_scale' });
    expect(!noValue.ok && noValue.error.data?.fields).toEqual(['value']);
    const badKey = await lab.call('get_set_settings', { action: 'get', namespace: 'system', key: 'a b' });
    expect(!badKey.ok && badKey.error.code).toBe('INVALID_ARGUMENT');
    const badNamespace = await lab.call('get_set_settings', { action: 'get', namespace: 'vendor', key: 'x' });
    expect(!badNamespace.ok && badNamespace.error.code).toBe('INVALID_ARGUMENT');
  });

  it('refuses to change settings that would switch adb off', async () => {
    const result = await lab.call('get_set_settings', {
      action: 'put',
      namespace: 'global',
      key: 'adb_enabled',
      value: '0',
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('PERMISSION_DENIED');
    expect(device.phone.services.settings.global.get('adb_enabled')).toBe('1');
  });

  it('gets, puts (reporting the previous value), lists and deletes settings', async () => {
    expect(
      jsonOf(await lab.call('get_set_settings', { action: 'get', namespace: 'system', key: 'screen_brightness' })),
    ).toMatchObject({ value: '128' });
    expect(
      jsonOf(
        await lab.call('get_set_settings', {
          action: 'put',
          namespace: 'system',
          key: 'screen_brightness',
          value: '200',
        }),
      ),
    ).toMatchObject({ previous: '128', value: '200' });
    expect(device.phone.services.settings.system.get('screen_brightness')).toBe('200');
    expect(
      jsonOf(
        await lab.call('get_set_settings', {
          action: 'put',
          namespace: 'global',
          key: 'device_name',
          value: "Bob's phone; rm -rf /",
        }),
      ),
    ).toMatchObject({ value: "Bob's phone; rm -rf /" });
    expect(textOf(await lab.call('get_set_settings', { action: 'list', namespace: 'global' }))).toContain(
      "device_name=Bob's phone; rm -rf /",
    );
    expect(
      jsonOf(await lab.call('get_set_settings', { action: 'get', namespace: 'secure', key: 'no_such_key' })),
    ).toMatchObject({ value: null });
    expect((await lab.call('get_set_settings', { action: 'delete', namespace: 'global', key: 'device_name' })).ok).toBe(
      true,
    );
    expect(device.phone.services.settings.global.has('device_name')).toBe(false);
  });
});

describe('control_media', () => {
  it('rejects an unknown transport command', async () => {
    const result = await lab.call('control_media', { action: 'rewind' });
    expect(!result.ok && result.error.code).toBe('INVALID_ARGUMENT');
  });

  it('says so when no app has a media session, sending nothing', async () => {
    await lab.call('app_force_stop', { packageName: 'com.android.music' });
    const before = device.executedCommands.length;
    const result = await lab.call('control_media', { action: 'play' });
    expect(!result.ok && result.error.code).toBe('NOT_FOUND');
    expect(!result.ok && result.error.message).toMatch(/No app has a media session/);
    expect(device.executedCommands.slice(before).some((argv) => argv[0] === 'cmd')).toBe(false);
  });

  it('plays, skips and pauses, reporting the state and track', async () => {
    await lab.call('app_launch', { packageName: 'com.android.music' });
    expect(jsonOf(await lab.call('control_media', { action: 'play' }))).toMatchObject({
      state: 'playing',
      stateCode: 3,
      changed: true,
      via: 'cmd media_session dispatch',
      session: 'com.android.music/MusicService/1',
      track: 'Morning Light, The Virtuals, Emulated Skies',
    });
    expect(jsonOf(await lab.call('control_media', { action: 'next' }))).toMatchObject({
      track: expect.stringMatching(/^Packet Loss/),
    });
    expect(jsonOf(await lab.call('control_media', { action: 'pause' }))).toMatchObject({ state: 'paused' });
    expect(device.phone.services.media.state).toBe('paused');
  });
});

describe('clipboard', () => {
  it('asks for the text to set', async () => {
    const result = await lab.call('clipboard', { action: 'set' });
    expect(!result.ok && result.error.data?.fields).toEqual(['text']);
  });

  it('is UNSUPPORTED where Android has no shell command for it, saying what Android 10+ allows instead', async () => {
    device.phone.services.clipboard = 'secret';
    const get = await lab.call('clipboard', { action: 'get' });
    expect(!get.ok && get.error).toMatchObject({
      code: 'UNSUPPORTED',
      message: expect.stringContaining('No shell command implementation.'),
      hint: expect.stringContaining('ui_dump'),
    });
    expect(!get.ok && get.error.message).toMatch(
      /Since Android 10 only the app in the foreground and the selected keyboard may read the clipboard/,
    );
    const set = await lab.call('clipboard', { action: 'set', text: 'x' });
    expect(!set.ok && set.error).toMatchObject({ code: 'UNSUPPORTED', hint: expect.stringContaining('input_text') });
    expect(device.phone.services.clipboard).toBe('secret');
  });
});

describe('get_time', () => {
  it('reports the device clock, its zone and the skew to this computer', async () => {
    const t = jsonOf<{ epochSeconds: number; utc: string; timezone: string; skewSeconds: number; local: string }>(
      await lab.call('get_time'),
    );
    expect(t.timezone).toBe('UTC');
    expect(t.utc).toBe(new Date(t.epochSeconds * 1000).toISOString());
    expect(t.local).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/);
    expect(Math.abs(t.skewSeconds)).toBeLessThanOrEqual(1);
  });
});

describe('logcat', () => {
  it('rejects out-of-range and malformed filters', async () => {
    for (const args of [{ lines: 0 }, { lines: 5000 }, { level: 'X' }, { packageName: 'x' }]) {
      const result = await lab.call('logcat', args);
      expect(!result.ok && result.error.code, JSON.stringify(args)).toBe('INVALID_ARGUMENT');
    }
  });

  it('says NOT_FOUND when the package has no running process', async () => {
    const result = await lab.call('logcat', { packageName: 'com.example.shop' });
    expect(!result.ok && result.error.code).toBe('NOT_FOUND');
  });

  it('returns the last N lines, oldest first', async () => {
    for (let i = 0; i < 30; i++) device.phone.log.add('I', 'LabTest', `line ${i}`, 4242);
    const out = textOf(await lab.call('logcat', { lines: 3 }));
    expect(out.split('\n')).toHaveLength(4);
    expect(out).toMatch(/line 27\n.*line 28\n.*line 29$/);
  });

  it('filters by tag and level, by pid, by package and by regex', async () => {
    device.phone.log.add('E', 'LabTest', 'something broke', 4242);
    device.phone.log.add('W', 'Other', 'unrelated warning', 4243);
    const errors = textOf(await lab.call('logcat', { tag: 'LabTest', level: 'E' }));
    expect(errors).toMatch(/^1 log line\(s\).*\n.* E LabTest +: something broke$/);
    expect(textOf(await lab.call('logcat', { pid: 4243 }))).toMatch(/unrelated warning$/);
    expect(textOf(await lab.call('logcat', { grep: 'line 1[0-2]$', lines: 50 })).split('\n')).toHaveLength(4);
    await lab.call('app_launch', { packageName: 'com.example.notes' });
    device.phone.log.add('I', 'Notes', 'opened', device.phone.pidOf('com.example.notes')!);
    expect(textOf(await lab.call('logcat', { packageName: 'com.example.notes' }))).toMatch(/Notes +: opened$/);
  });

  it('keeps only lines from the last N seconds by the device clock', async () => {
    const out = textOf(await lab.call('logcat', { sinceSeconds: 3600, tag: 'LabTest', lines: 5 }));
    expect(out).toMatch(/^5 log line/);
  });
});

describe('get_location', () => {
  it('reports the last known location', async () => {
    expect(jsonOf(await lab.call('get_location'))).toMatchObject({
      enabled: true,
      provider: 'fused',
      latitude: 48.8584,
      longitude: 2.2945,
      accuracyMeters: 12,
    });
  });

  it('says NOT_FOUND with a fix when location is off', async () => {
    device.phone.services.locationEnabled = false;
    const result = await lab.call('get_location');
    device.phone.services.locationEnabled = true;
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('NOT_FOUND');
      expect(result.error.message).toMatch(/location is switched off/);
    }
  });
});

describe('notification_read', () => {
  it('lists notifications newest first, filtered by package and limited', async () => {
    device.phone.services.postNotification('com.example.shop', 'deals', 'Sale', "50% off — today's deals");
    const all = jsonOf<{ count: number; notifications: { packageName: string; title: string; text: string }[] }>(
      await lab.call('notification_read'),
    );
    expect(all.count).toBe(4);
    expect(all.notifications[0]).toMatchObject({
      packageName: 'com.example.shop',
      title: 'Sale',
      text: "50% off — today's deals",
    });
    const shop = jsonOf<{ count: number; notifications: unknown[] }>(
      await lab.call('notification_read', { packageName: 'com.example.shop', limit: 1 }),
    );
    expect(shop.count).toBe(2);
    expect(shop.notifications).toHaveLength(1);
  });
});
