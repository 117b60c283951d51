/**
 * Rule: packages on the virtual phone behave as adbkit and the adb CLI expect — push + `pm install`
 * adds a package that `pm list packages` shows and `pm uninstall` removes; activities start, stop
 * and report through dumpsys. APK convention: a `package=NAME` line in the file, else the file name.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runAdb } from '../../tools/devices/virtual';
import { useVirtualDevice } from './virtual-device-harness';

const vd = useVirtualDevice();
const { shell } = vd;

async function push(content: string, path: string): Promise<void> {
  const transfer = await vd.phone.push(Readable.from([Buffer.from(content)]), path);
  await new Promise<void>((resolve, reject) => transfer.on('end', resolve).on('error', reject));
}

describe('installing and removing packages', () => {
  it('lists the preinstalled launcher, settings and demo apps, split by -s and -3', async () => {
    const all = await vd.phone.getPackages();
    expect(all).toEqual(
      expect.arrayContaining([
        'com.android.launcher3',
        'com.android.settings',
        'com.example.notes',
        'com.example.shop',
      ]),
    );
    expect(await shell('pm list packages -3')).toContain('package:com.example.notes\n');
    expect(await shell('pm list packages -3')).not.toContain('com.android.settings');
    expect(await shell('pm list packages -s settings')).toBe('package:com.android.settings\n');
  });

  it('installs a pushed APK named after its package, lists it, and uninstalls it', async () => {
    await push('any bytes at all', '/data/local/tmp/com.acme.todo-2.1.apk');
    expect(await shell('pm install -r /data/local/tmp/com.acme.todo-2.1.apk')).toBe('Success\n');
    expect(await shell('pm list packages com.acme')).toBe('package:com.acme.todo\n');
    expect(await shell('pm path com.acme.todo')).toMatch(/^package:\/data\/app\/.*\/base\.apk\n$/);
    expect(await shell('dumpsys package com.acme.todo')).toMatch(
      /versionName=2\.1\n[\s\S]*firstInstallTime=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/,
    );
    expect(await shell('pm uninstall com.acme.todo')).toBe('Success\n');
    expect(await shell('pm list packages com.acme')).toBe('');
    expect(await vd.phone.isInstalled('com.acme.todo')).toBe(false);
  });

  it('installs through adbkit install() from a stream carrying a text manifest', async () => {
    const apk = Readable.from([
      Buffer.from('PK\u0003\u0004\npackage=com.acme.notes2\nversionName=3.0\nlabel=Notes Two\n'),
    ]);
    expect(await vd.phone.install(apk)).toBe(true);
    expect(await vd.phone.isInstalled('com.acme.notes2')).toBe(true);
    expect(vd.device.executedCommands).toContainEqual(['rm', '-f', '/data/local/tmp/_stream.apk']);
    expect(await vd.phone.uninstall('com.acme.notes2')).toBe(true);
  });

  it('installs with the adb CLI, which streams the APK without a shell (so without its file name)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vd-apk-'));
    const file = join(dir, 'anything.apk');
    writeFileSync(file, 'package=com.acme.cli\n');
    expect(await runAdb(['-s', vd.device.serial, 'install', file])).toContain('Success');
    expect(vd.device.executedCommands.at(-1)).toEqual(['cmd', 'package', 'install', '-S', '21']);
    expect(await shell('pm list packages com.acme.cli')).toBe('package:com.acme.cli\n');
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts an installed app from the launcher entry its manifest declares', async () => {
    await push('package=com.acme.hello\nactivity=.HelloActivity\n', '/data/local/tmp/hello.apk');
    expect(await shell('pm install /data/local/tmp/hello.apk')).toBe('Success\n');
    await shell('monkey -p com.acme.hello -c android.intent.category.LAUNCHER 1');
    expect(await shell('dumpsys window | grep mCurrentFocus')).toContain('com.acme.hello/com.acme.hello.HelloActivity');
  });

  it('refuses an APK it cannot name, and a package that is already installed without -r', async () => {
    await push('no manifest', '/data/local/tmp/app.apk');
    expect(await shell('pm install -r /data/local/tmp/app.apk')).toMatch(/^Failure \[INSTALL_FAILED_INVALID_APK/);
    await push('package=com.example.notes', '/data/local/tmp/n.apk');
    expect(await shell('pm install /data/local/tmp/n.apk')).toMatch(/^Failure \[INSTALL_FAILED_ALREADY_EXISTS/);
  });

  it('refuses to uninstall a system app or an unknown package', async () => {
    expect(await shell('pm uninstall com.android.settings')).toBe('Failure [DELETE_FAILED_INTERNAL_ERROR]\n');
    expect(await shell('pm uninstall com.nobody.here')).toBe('Failure [DELETE_FAILED_INTERNAL_ERROR]\n');
  });
});

describe('activities', () => {
  it('starts an activity with am start -n and reports it as resumed', async () => {
    expect(await shell('am start -W -n com.example.shop/.ShopActivity')).toContain('Status: ok');
    expect(await shell('dumpsys activity activities | grep topResumedActivity=')).toContain(
      'com.example.shop/.ShopActivity',
    );
    expect(await shell('pidof com.example.shop')).toMatch(/^\d+\n$/);
  });

  it('reports a missing activity with an Error line (what adbkit startActivity checks)', async () => {
    await expect(vd.phone.startActivity({ component: 'com.example.shop/.Nope' })).rejects.toThrow(/does not exist/);
  });

  it('force-stops an app: its process ends and the launcher comes back', async () => {
    await shell('am start -n com.example.shop/.ShopActivity');
    await shell('am force-stop com.example.shop');
    expect(await shell('pidof com.example.shop')).toBe('');
    expect(await shell('dumpsys window | grep mCurrentFocus')).toContain('com.android.launcher3');
  });

  it('clears app data with pm clear (adbkit clear)', async () => {
    await shell('am start -n com.example.notes/.MainActivity');
    await shell(await vd.tapOn('resource-id="com.example.notes:id/note_input"'));
    await shell('input text kept');
    await shell(await vd.tapOn('resource-id="com.example.notes:id/save_button"'));
    expect(await shell('uiautomator dump /dev/tty')).toContain('text="kept"');
    expect(await vd.phone.clear('com.example.notes')).toBe(true);
    await shell('am start -n com.example.notes/.NoteListActivity');
    expect(await shell('uiautomator dump /dev/tty')).toContain('text="0 notes"');
  });
});

describe('query-activities', () => {
  it('lists the launcher entries in the ResolveInfo form tools read their packageName= lines from', async () => {
    const out = await shell(
      'cmd package query-activities -a android.intent.action.MAIN -c android.intent.category.LAUNCHER',
    );
    const count = Number(/^(\d+) activities found:\n/.exec(out)?.[1]);
    expect(count).toBeGreaterThanOrEqual(3);
    expect(out.match(/^ {2}Activity #\d+:$/gm)).toHaveLength(count);
    expect(out).toContain(
      [
        '    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false',
        '    ActivityInfo:',
        '      name=com.example.notes.MainActivity',
        '      packageName=com.example.notes',
        '      enabled=true exported=true directBootAware=false',
        '      ApplicationInfo:',
        '        packageName=com.example.notes',
      ].join('\n'),
    );
    // The notes list is no launcher entry: only the app's first activity is.
    expect(out).not.toContain('com.example.notes.NoteListActivity');
  });

  it('narrows by package, gives components with --components and --brief, and says when nothing matches', async () => {
    const launcher = '-a android.intent.action.MAIN -c android.intent.category.LAUNCHER';
    expect(await shell(`pm query-activities --components ${launcher} com.example.notes`)).toBe(
      'com.example.notes/.MainActivity\n',
    );
    expect(await shell(`cmd package query-activities --brief ${launcher} com.example.shop`)).toBe(
      [
        '1 activities found:',
        '  Activity #0:',
        '    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false',
        '    com.example.shop/.ShopActivity',
        '',
      ].join('\n'),
    );
    expect(await shell(`cmd package query-activities ${launcher} com.nobody.here`)).toBe('No activities found\n');
  });
});
