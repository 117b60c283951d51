/**
 * Rule (issue 16): on each family of phones, the app tools — app_list, app_launch, app_info,
 * app_force_stop, app_install, app_uninstall — called through the real adb server and the pipeline,
 * read the phone's real output (the resolver tables of `dumpsys package`, pm's Failure lines) and
 * turn its refusals into PERMISSION_DENIED / UNSUPPORTED naming the setting or argument that fixes
 * them (MIUI's "Install via USB", Android 14+'s low-target-SDK block).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_NAMES } from '../../tools/devices/virtual';
import { jsonOf, textOf } from './device-lab';
import { ANSWERS, type ProfileLab, errorOf, startProfileLab } from './profile-lab';

describe.each(PROFILE_NAMES)('the app tools on the %s profile', (profile) => {
  const answers = ANSWERS[profile];
  let p: ProfileLab;

  beforeAll(async () => {
    p = await startProfileLab(profile);
  });

  afterAll(async () => {
    await p?.close();
  });

  it('app_list lists the user-installed apps', async () => {
    const list = textOf(await p.run('app_list'));
    expect(list).toContain('com.example.notes');
    expect(list).not.toContain('com.android.settings');
  });

  it('app_launch brings the app to the front, as the telemetry reads it', async () => {
    expect(textOf(await p.run('app_launch', { packageName: 'com.example.shop' }))).toBe(
      'Launched com.example.shop. Foreground is now com.example.shop/.ShopActivity.',
    );
  });

  it("app_info lists the resolver tables' activities, marking the launcher one, and the install times", async () => {
    const info = jsonOf<Record<string, unknown>>(await p.run('app_info', { packageName: 'com.example.notes' }));
    expect(info).toMatchObject({
      versionName: '1.4.2',
      versionCode: '142',
      system: false,
      launcherActivity: 'com.example.notes.MainActivity',
      // .NoteListActivity has no intent filter, so no resolver table lists it.
      activities: ['com.example.notes.MainActivity'],
      intentFilters: [
        {
          name: 'com.example.notes.MainActivity',
          actions: ['android.intent.action.MAIN'],
          categories: ['android.intent.category.LAUNCHER'],
        },
      ],
    });
    expect(info.firstInstallTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(info.lastUpdateTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const settings = jsonOf<Record<string, unknown>>(await p.run('app_info', { packageName: 'com.android.settings' }));
    expect(settings).toMatchObject({ system: true, launcherActivity: 'com.android.settings.Settings' });
    expect(settings.intentFilters).toContainEqual({
      name: 'com.android.settings.Settings',
      actions: ['android.intent.action.MAIN', 'android.settings.SETTINGS'],
      categories: ['android.intent.category.LAUNCHER', 'android.intent.category.DEFAULT'],
    });
    expect(errorOf(await p.run('app_info', { packageName: 'com.example.absent' })).code).toBe('NOT_FOUND');
  });

  it('app_force_stop stops a running app', async () => {
    await p.run('app_launch', { packageName: 'com.example.shop' });
    expect(textOf(await p.run('app_force_stop', { packageName: 'com.example.shop' }))).toMatch(
      /^Force-stopped com\.example\.shop \(was running as pid \d+\)\.$/,
    );
    expect(p.device.phone.pidOf('com.example.shop')).toBeUndefined();
  });

  const installRule = answers.installRefused
    ? 'is PERMISSION_DENIED naming "Install via USB" until it is on'
    : 'installs an APK';
  it(`app_install ${installRule}, and app_uninstall removes it`, async () => {
    writeFileSync(join(p.lab.workspace, 'todo.apk'), 'package=com.acme.todo\ntargetSdk=34\n');
    if (answers.installRefused) {
      const refused = errorOf(await p.run('app_install', { path: 'todo.apk' }));
      expect(refused.code).toBe('PERMISSION_DENIED');
      expect(refused.message).toContain('INSTALL_FAILED_USER_RESTRICTED');
      expect(refused.hint).toContain('"Install via USB"');
      expect(p.device.phone.getPackage('com.acme.todo')).toBeUndefined();
      // The person turns the setting on.
      p.device.phone.props.set(p.device.phone.profile.oem.usbInstall!.prop, '1');
    }
    expect(textOf(await p.run('app_install', { path: 'todo.apk' }))).toMatch(/installed com\.acme\.todo\.$/);
    expect(textOf(await p.run('app_uninstall', { packageName: 'com.acme.todo' }))).toBe('Uninstalled com.acme.todo.');
  });

  const lowTargetRule = answers.lowTargetRefused
    ? 'is UNSUPPORTED, offering allowLowTargetSdk'
    : 'installs, and allowLowTargetSdk is refused as needless';
  it(`app_install of an APK targeting SDK 22 ${lowTargetRule}`, async () => {
    writeFileSync(join(p.lab.workspace, 'old.apk'), 'package=com.acme.old\ntargetSdk=22\n');
    if (answers.lowTargetRefused) {
      const refused = errorOf(await p.run('app_install', { path: 'old.apk' }));
      expect(refused.code).toBe('UNSUPPORTED');
      expect(refused.message).toContain(
        'INSTALL_FAILED_DEPRECATED_SDK_VERSION: App package must target at least SDK version',
      );
      expect(refused.hint).toContain('allowLowTargetSdk=true');
      expect(textOf(await p.run('app_install', { path: 'old.apk', allowLowTargetSdk: true }))).toMatch(
        /installed com\.acme\.old\.$/,
      );
    } else {
      expect(textOf(await p.run('app_install', { path: 'old.apk' }))).toMatch(/installed com\.acme\.old\.$/);
      if (p.device.phone.profile.sdk < 34) {
        const needless = errorOf(await p.run('app_install', { path: 'old.apk', allowLowTargetSdk: true }));
        expect(needless.code).toBe('INVALID_ARGUMENT');
        expect(needless.hint).toContain('without allowLowTargetSdk');
      }
    }
    await p.run('app_uninstall', { packageName: 'com.acme.old' });
  });
});
