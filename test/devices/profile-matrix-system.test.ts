/**
 * Rule (issue 16): on each family of phones, the system and reader tools — get_device_info,
 * get_set_settings, control_media, clipboard, get_time, logcat, get_location, notification_read and
 * a read-only shell_execute — called through the real adb server and the pipeline, read the phone's
 * real output: named and numeric playback states, `media dispatch` where `cmd media_session` is
 * missing, a missing media session said, "Location Setting: true" or location_mode, multi-line
 * notification texts; and the clipboard, which no Android offers to a shell, is UNSUPPORTED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_NAMES } from '../../tools/devices/virtual';
import { jsonOf, textOf } from './device-lab';
import { ANSWERS, type ProfileLab, errorOf, startProfileLab } from './profile-lab';

describe.each(PROFILE_NAMES)('the system tools on the %s profile', (profile) => {
  const answers = ANSWERS[profile];
  let p: ProfileLab;

  beforeAll(async () => {
    p = await startProfileLab(profile);
  });

  afterAll(async () => {
    await p?.close();
  });

  it('get_device_info reports the build and the display that is on', async () => {
    const { width, height, density } = p.device.phone.screen;
    expect(jsonOf(await p.run('get_device_info'))).toMatchObject({
      model: p.device.phone.profile.model,
      manufacturer: answers.manufacturer,
      androidVersion: answers.androidVersion,
      sdk: p.device.phone.profile.sdk,
      screen: { width, height, density },
      battery: { level: 87, scale: 100, usbPowered: true },
    });
  });

  it('get_set_settings reads a setting without asking anyone', async () => {
    expect(
      jsonOf(await p.run('get_set_settings', { action: 'get', namespace: 'global', key: 'adb_enabled' })),
    ).toMatchObject({ value: '1' });
  });

  it('control_media says when no app has a media session, sending nothing', async () => {
    await p.run('app_force_stop', { packageName: 'com.android.music' });
    const e = errorOf(await p.run('control_media', { action: 'play' }));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toContain('No app has a media session');
    expect(p.device.phone.services.media.state).toBe('paused');
  });

  it(`control_media sends keys with \`${answers.mediaVia}\` and reads the state, named or numeric`, async () => {
    await p.run('app_launch', { packageName: 'com.android.music' });
    expect(jsonOf(await p.run('control_media', { action: 'play' }))).toMatchObject({
      via: answers.mediaVia,
      packageName: 'com.android.music',
      state: 'playing',
      stateCode: 3,
      changed: true,
      track: 'Morning Light, The Virtuals, Emulated Skies',
    });
    expect(jsonOf(await p.run('control_media', { action: 'next' }))).toMatchObject({
      state: 'playing',
      track: 'Packet Loss, The Virtuals, Emulated Skies',
    });
    expect(jsonOf(await p.run('control_media', { action: 'pause' }))).toMatchObject({ state: 'paused', stateCode: 2 });
    expect(p.device.phone.services.media.state).toBe('paused');
  });

  it('clipboard is UNSUPPORTED ("No shell command implementation."), saying what Android 10+ allows', async () => {
    const e = errorOf(await p.run('clipboard', { action: 'get' }));
    expect(e.code).toBe('UNSUPPORTED');
    expect(e.message).toContain('"No shell command implementation."');
    expect(e.message).toContain('Since Android 10 only the app in the foreground and the selected keyboard');
  });

  it('get_time reads the device clock', async () => {
    expect(jsonOf(await p.run('get_time'))).toMatchObject({ timezone: 'UTC' });
  });

  it('logcat returns the recent lines', async () => {
    expect(textOf(await p.run('logcat', { tag: 'ActivityManager', lines: 5 }))).toContain('ActivityManager');
  });

  it('get_location reads whether location is on from the real dump, and says so when it is off', async () => {
    expect(jsonOf(await p.run('get_location'))).toMatchObject({
      enabled: true,
      provider: 'fused',
      latitude: 48.8584,
      longitude: 2.2945,
      accuracyMeters: 12,
    });
    p.device.phone.services.locationEnabled = false;
    p.device.phone.services.settings.secure.set('location_mode', '0');
    const off = errorOf(await p.run('get_location'));
    p.device.phone.services.locationEnabled = true;
    p.device.phone.services.settings.secure.set('location_mode', '3');
    expect(off.code).toBe('NOT_FOUND');
    expect(off.message).toContain('location is switched off');
    expect(off.data).toMatchObject({ enabled: false });
  });

  it('notification_read keeps multi-line texts whole', async () => {
    p.device.phone.services.postNotification(
      'com.example.shop',
      'orders',
      'Delivery',
      'Arrives Tuesday\nbetween 9 and 12 (ring twice)',
    );
    const read = jsonOf<{ notifications: { title: string; text: string }[] }>(
      await p.run('notification_read', { packageName: 'com.example.shop' }),
    );
    expect(read.notifications[0]).toMatchObject({
      title: 'Delivery',
      text: 'Arrives Tuesday\nbetween 9 and 12 (ring twice)',
    });
  });

  it('shell_execute runs a read-only command without asking', async () => {
    expect(textOf(await p.run('shell_execute', { command: 'getprop ro.build.version.release' }))).toBe(
      `${answers.androidVersion}\n[exit status 0]`,
    );
  });
});
