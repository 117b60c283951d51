/**
 * Rule (docs/architecture.md#tool-families, apps family): app_list, app_launch, app_install,
 * app_uninstall, app_force_stop and app_info work on a real adb server with the virtual phone;
 * every bad input (unknown package, malformed name, a path outside the workspace, a file that is
 * not an APK, a system app) is a model-readable error with the right code; the destructive ones
 * declare themselves HIGH risk so the approval gate asks.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgressUpdate } from '../../tools/core';
import { needsApproval } from '../../tools/core/permission';
import type { VirtualDevice } from '../../tools/devices/virtual';
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

describe('declarations', () => {
  it('makes install, uninstall and force-stop HIGH risk and destructive, and the readers read-only', () => {
    for (const id of ['app_install', 'app_uninstall', 'app_force_stop']) {
      const tool = lab.registry.get(id)!;
      expect(tool.metadata.risk).toBe('HIGH');
      expect(tool.metadata.annotations.destructiveHint).toBe(true);
      expect(needsApproval(tool)).toBe(true);
    }
    for (const id of ['app_list', 'app_info']) {
      expect(lab.registry.get(id)!.metadata.annotations.readOnlyHint).toBe(true);
      expect(needsApproval(lab.registry.get(id)!)).toBe(false);
    }
    expect(lab.registry.get('app_launch')!.metadata.annotations.destructiveHint).toBe(false);
  });
});

describe('app_list', () => {
  it('lists the user-installed apps by default, sorted, and all or system ones on request', async () => {
    expect(textOf(await lab.call('app_list'))).toBe(
      '3 third-party package(s) on ' +
        device.serial +
        ':\ncom.android.adbkeyboard\ncom.example.notes\ncom.example.shop',
    );
    expect(textOf(await lab.call('app_list', { which: 'system' }))).toContain('com.android.settings');
    const filtered = await lab.call('app_list', { which: 'all', filter: 'SHOP' });
    expect((filtered as { structured: { packages: string[] } }).structured.packages).toEqual(['com.example.shop']);
  });

  it('rejects an unknown value of which', async () => {
    const result = await lab.call('app_list', { which: 'everything' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('INVALID_ARGUMENT');
  });
});

describe('app_launch', () => {
  it('refuses a malformed package name before touching the device', async () => {
    const before = device.commandLog.length;
    const result = await lab.call('app_launch', { packageName: 'not a package' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('INVALID_ARGUMENT');
      expect(result.error.message).toMatch(/not an Android package name/);
    }
    expect(device.commandLog.length).toBe(before);
  });

  it('says NOT_FOUND for an app that is not installed', async () => {
    const result = await lab.call('app_launch', { packageName: 'com.nope.missing' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('NOT_FOUND');
      expect(result.error.hint).toMatch(/app_list/);
    }
  });

  it('says NOT_FOUND for an activity that does not exist', async () => {
    const result = await lab.call('app_launch', { packageName: 'com.example.notes', activity: '.NoSuchActivity' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('NOT_FOUND');
  });

  it('launches an app and reports the new foreground', async () => {
    const result = await lab.call('app_launch', { packageName: 'com.example.notes' });
    expect(textOf(result)).toBe('Launched com.example.notes. Foreground is now com.example.notes/.MainActivity.');
    expect(device.phone.foreground().packageName).toBe('com.example.notes');
  });

  it('starts a given activity', async () => {
    const result = await lab.call('app_launch', { packageName: 'com.example.notes', activity: '.NoteListActivity' });
    expect(textOf(result)).toContain('Foreground is now com.example.notes/.NoteListActivity.');
    expect(device.phone.foreground().activity).toBe('com.example.notes.NoteListActivity');
  });
});

describe('app_info', () => {
  it('describes an installed app, including whether it runs', async () => {
    const info = jsonOf<{
      versionName: string;
      system: boolean;
      running: { pid: number } | false;
      activities: string[];
    }>(await lab.call('app_info', { packageName: 'com.example.notes' }));
    expect(info.versionName).toBe('1.4.2');
    expect(info.system).toBe(false);
    expect(info.running).toEqual({ pid: device.phone.pidOf('com.example.notes') });
    expect(info.activities).toContain('com.example.notes.MainActivity');
    const settings = jsonOf<{ system: boolean }>(await lab.call('app_info', { packageName: 'com.android.settings' }));
    expect(settings.system).toBe(true);
  });

  it('says NOT_FOUND for a package that is not installed', async () => {
    const result = await lab.call('app_info', { packageName: 'com.nope.missing' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('NOT_FOUND');
  });
});

describe('app_force_stop', () => {
  it('says NOT_FOUND for a package that is not installed', async () => {
    const result = await lab.call('app_force_stop', { packageName: 'com.nope.missing' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('NOT_FOUND');
  });

  it('stops a running app and says it was running', async () => {
    await lab.call('app_launch', { packageName: 'com.example.shop' });
    const pid = device.phone.pidOf('com.example.shop');
    expect(textOf(await lab.call('app_force_stop', { packageName: 'com.example.shop' }))).toBe(
      `Force-stopped com.example.shop (was running as pid ${pid}).`,
    );
    expect(device.phone.pidOf('com.example.shop')).toBeUndefined();
    expect(textOf(await lab.call('app_force_stop', { packageName: 'com.example.shop' }))).toContain('was not running');
  });
});

describe('app_install', () => {
  it('refuses a path outside the workspace, through .. or a symlink, without pushing anything', async () => {
    // The screen-state read after an earlier action is not this call's.
    await lab.service.telemetry.pending(device.serial);
    const before = device.commandLog.length;
    for (const path of ['../outside.apk', '/etc/passwd']) {
      const result = await lab.call('app_install', { path });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('PERMISSION_DENIED');
    }
    symlinkSync('/etc/hostname', join(lab.workspace, 'escape.apk'));
    const viaLink = await lab.call('app_install', { path: 'escape.apk' });
    expect(viaLink.ok).toBe(false);
    if (!viaLink.ok) expect(viaLink.error.code).toBe('PERMISSION_DENIED');
    expect(device.commandLog.length).toBe(before);
  });

  it('says NOT_FOUND for a missing file, and INVALID_ARGUMENT for a directory or a non-APK', async () => {
    const missing = await lab.call('app_install', { path: 'nothing-here.apk' });
    expect(!missing.ok && missing.error.code).toBe('NOT_FOUND');
    mkdirSync(join(lab.workspace, 'dir.apk'));
    const dir = await lab.call('app_install', { path: 'dir.apk' });
    expect(!dir.ok && dir.error.code).toBe('INVALID_ARGUMENT');
    writeFileSync(join(lab.workspace, 'notes.txt'), 'hello');
    const text = await lab.call('app_install', { path: 'notes.txt' });
    expect(!text.ok && text.error.code).toBe('INVALID_ARGUMENT');
  });

  it('pushes the APK with progress, installs it, names the new package and removes the pushed copy', async () => {
    writeFileSync(
      join(lab.workspace, 'todo.apk'),
      `package=com.acme.todo\nversionName=2.0\nlabel=Todo\n${'x'.repeat(200_000)}`,
    );
    const progress: ProgressUpdate[] = [];
    const result = await lab.call('app_install', { path: 'todo.apk' }, { onProgress: (p) => progress.push(p) });
    expect(textOf(result)).toMatch(/^Installed todo\.apk \(\d+ bytes\) on .*: installed com\.acme\.todo\.$/);
    expect(device.phone.getPackage('com.acme.todo')?.info.versionName).toBe('2.0');
    expect(
      progress.some((p) => p.message?.startsWith('uploading') && p.progress > 0 && p.progress < (p.total ?? 0)),
    ).toBe(true);
    expect(progress.at(-1)).toMatchObject({ message: 'installing' });
    expect(device.phone.fs.stat('/data/local/tmp/todo.apk')).toBeFalsy();
  });

  it('reports pm failures with their reason and a hint', async () => {
    const again = await lab.call('app_install', { path: 'todo.apk', replace: false });
    expect(again.ok).toBe(false);
    if (!again.ok) {
      expect(again.error.message).toMatch(/INSTALL_FAILED_ALREADY_EXISTS/);
      expect(again.error.hint).toMatch(/replace=true/);
    }
    writeFileSync(join(lab.workspace, 'broken.apk'), 'no manifest here');
    const broken = await lab.call('app_install', { path: 'broken.apk' });
    expect(!broken.ok && broken.error.message).toMatch(/INSTALL_FAILED_INVALID_APK/);
  });
});

describe('app_uninstall', () => {
  it('says NOT_FOUND for a package that is not installed', async () => {
    const result = await lab.call('app_uninstall', { packageName: 'com.nope.missing' });
    expect(!result.ok && result.error.code).toBe('NOT_FOUND');
  });

  it('refuses to remove a system app, with a hint', async () => {
    const result = await lab.call('app_uninstall', { packageName: 'com.android.settings' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('EXECUTION_FAILED');
      expect(result.error.hint).toMatch(/System apps cannot be uninstalled/);
    }
    expect(device.phone.getPackage('com.android.settings')).toBeDefined();
  });

  it('uninstalls an installed app', async () => {
    expect(textOf(await lab.call('app_uninstall', { packageName: 'com.acme.todo' }))).toBe(
      'Uninstalled com.acme.todo.',
    );
    expect(device.phone.getPackage('com.acme.todo')).toBeUndefined();
  });
});
