/**
 * Rule: the phone-wide services answer in the forms device tools parse — logcat text and binary,
 * settings, clipboard, media session, location, notifications, power, battery, Doze — and commands
 * that change them are visible on the next read.
 */
import Adb from '@devicefarmer/adbkit';
import { describe, expect, it } from 'vitest';
import { useVirtualDevice } from './virtual-device-harness';

const vd = useVirtualDevice();
const { shell } = vd;

describe('logcat', () => {
  it('dumps the ring buffer in threadtime format with -d', async () => {
    const out = await shell('logcat -d');
    expect(out).toMatch(/^--------- beginning of main\n/);
    expect(out).toMatch(/\n\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} +\d+ +\d+ I ActivityManager: System now ready\n/);
  });

  it('keeps the last N entries with -t N', async () => {
    const lines = (await shell('logcat -d -t 2')).trim().split('\n');
    expect(lines).toHaveLength(3); // the "beginning of main" banner and two entries
  });

  it('filters by tag with -s and by level with *:LEVEL, in brief format', async () => {
    await shell('am start -n com.example.shop/.ShopActivity');
    await shell(await vd.tapOn('content-desc="Add Coffee beans to cart"'));
    await shell('am start -n com.example.shop/.CartActivity; am force-stop com.example.shop');
    expect(await shell('logcat -d -s ShopApp -v brief')).toMatch(
      /\nI\/ShopApp \( *\d+\): added Coffee beans to cart \(1 items\)\n/, // the tag padded to 8 (%-8.*s)
    );
    const warnings = await shell('logcat -d *:W');
    expect(warnings).not.toContain(' I ');
  });

  it('filters by process with --pid', async () => {
    await shell('am start -n com.example.notes/.MainActivity');
    await shell(await vd.tapOn('resource-id="com.example.notes:id/save_button"'));
    const pid = (await shell('pidof com.example.notes')).trim();
    const out = await shell(`logcat -d --pid=${pid} -v tag`);
    expect(out).toContain('W/NotesApp: refusing to save an empty note');
    expect(out).not.toContain('ActivityManager');
  });

  it('logs a FATAL EXCEPTION when the shop checks out an empty cart', async () => {
    await shell('pm clear com.example.shop; am start -n com.example.shop/.CartActivity');
    await shell(await vd.tapOn('resource-id="com.example.shop:id/checkout_button"'));
    expect(await shell('logcat -d -s AndroidRuntime:E')).toContain(
      'java.lang.IllegalStateException: cannot check out an empty cart',
    );
    expect(await shell('dumpsys window | grep mCurrentFocus')).toContain('com.android.launcher3');
  });

  it('streams binary entries to adbkit openLogcat and follows new ones', async () => {
    const reader = await vd.phone.openLogcat({ clear: false });
    const seen = new Promise<string>((resolve) => {
      reader.on('entry', (entry: { tag: string; message: string }) => {
        if (entry.tag === 'ShopApp' && entry.message.startsWith('added Tea sampler')) resolve(entry.message);
      });
    });
    await shell('am start -n com.example.shop/.ShopActivity');
    await shell(await vd.tapOn('content-desc="Add Tea sampler to cart"'));
    expect(await seen).toMatch(/^added Tea sampler to cart \(\d+ items\)$/);
    reader.end();
  });

  it('empties the buffer with -c', async () => {
    await shell('logcat -c');
    expect(await shell('logcat -d')).toBe('');
  });
});

describe('settings, clipboard and properties', () => {
  it('reads, writes and lists settings in the three namespaces', async () => {
    expect(await shell('settings get global airplane_mode_on')).toBe('0\n');
    await shell('settings put system screen_brightness 42');
    expect(await shell('settings get system screen_brightness')).toBe('42\n');
    expect(await shell('settings list system')).toContain('screen_brightness=42\n');
    expect(await shell('settings get secure no_such_key')).toBe('null\n');
  });

  it('shows a settings change in the Settings app', async () => {
    await shell('settings put global airplane_mode_on 1; am start -n com.android.settings/.Settings');
    expect(await shell('uiautomator dump /dev/tty')).toMatch(/text="Airplane mode"[^>]*checked="true"/);
  });

  it('has no shell command for the clipboard, as no Android has', async () => {
    expect(await shell("cmd clipboard set 'hello world'")).toBe('No shell command implementation.\n');
    expect(await shell('cmd clipboard get')).toBe('No shell command implementation.\n');
  });
});

describe('media, location, notifications, power', () => {
  it('lists no media session until the music app runs, then dispatches keys to it and names its state', async () => {
    await shell('am force-stop com.android.music');
    expect(await shell('dumpsys media_session')).toContain('Sessions Stack - have 0 sessions:');
    await shell('monkey -p com.android.music -c android.intent.category.LAUNCHER 1; cmd media_session dispatch play');
    expect(await shell('dumpsys media_session')).toContain('state=PlaybackState {state=PLAYING(3), ');
    await shell('cmd media_session dispatch next; input keyevent KEYCODE_MEDIA_PAUSE');
    const state = await shell('dumpsys media_session');
    expect(state).toContain('state=PlaybackState {state=PAUSED(2), ');
    expect(state).toContain('metadata: size=4, description=Packet Loss, The Virtuals, Emulated Skies');
  });

  it('reports the last known location, and a test provider location once set', async () => {
    expect(await shell('dumpsys location')).toContain('last location=Location[fused 48.858400,2.294500');
    expect(await shell('dumpsys location')).toContain('Location Setting: true');
    await shell(
      'cmd location providers add-test-provider gps; cmd location providers set-test-provider-location gps ' +
        '--location 35.6586,139.7454',
    );
    expect(await shell('dumpsys location')).toContain('last location=Location[gps 35.658600,139.745400');
  });

  it('lists notifications with titles and texts, including newly posted ones', async () => {
    await shell("cmd notification post -t 'Build done' ci 'All 42 tests passed'");
    const out = await shell('dumpsys notification --noredact');
    expect(out).toContain('pkg=com.android.settings');
    expect(out).toContain('android.title=String (USB debugging connected)');
    expect(out).toContain('android.text=String (All 42 tests passed)');
  });

  it('sleeps and wakes with power keys, and a sleeping screen is black', async () => {
    expect(await shell('dumpsys power | grep mWakefulness')).toContain('mWakefulness=Awake');
    await shell('input keyevent KEYCODE_SLEEP');
    expect(await shell('dumpsys power | grep mWakefulness')).toContain('mWakefulness=Asleep');
    const png = (await import('pngjs')).PNG.sync.read(await Adb.util.readAll(await vd.phone.screencap()));
    expect(png.data.every((v, i) => (i % 4 === 3 ? v === 255 : v === 0))).toBe(true);
    await shell('input keyevent KEYCODE_WAKEUP');
    expect(await shell('dumpsys power | grep mWakefulness')).toContain('mWakefulness=Awake');
  });

  it('changes the battery with dumpsys battery set|unplug, says updates stopped, and reset restores it', async () => {
    expect(await shell('dumpsys battery set level 5')).toBe('');
    expect(await shell('dumpsys battery unplug')).toBe('');
    const changed = await shell('dumpsys battery');
    expect(changed).toContain("  (UPDATES STOPPED -- use 'reset' to restart)\n");
    expect(changed).toContain('  level: 5\n');
    expect(changed).toContain('  USB powered: false\n');
    expect(await shell('dumpsys battery set colour 3')).toBe('Unknown set option: colour\n');
    expect(await shell('dumpsys battery set level high')).toBe('Bad value: high\n');
    await shell('dumpsys battery reset');
    const restored = await shell('dumpsys battery');
    expect(restored).not.toContain('UPDATES STOPPED');
    expect(restored).toContain('  level: 87\n');
    expect(restored).toContain('  USB powered: true\n');
  });

  it('forces Doze with dumpsys deviceidle force-idle, steps it, and unforce ends it', async () => {
    expect(await shell('dumpsys deviceidle force-idle')).toBe('Now forced in to deep idle mode\n');
    expect(await shell('dumpsys deviceidle get deep')).toBe('IDLE\n');
    expect(await shell('dumpsys deviceidle step')).toBe('Stepped to deep: IDLE_MAINTENANCE\n');
    expect(await shell('dumpsys deviceidle | grep mState')).toContain('mState=IDLE_MAINTENANCE');
    expect(await shell('dumpsys deviceidle unforce')).toBe('Light state: ACTIVE, deep state: ACTIVE\n');
    expect(await shell('dumpsys deviceidle get deep')).toBe('ACTIVE\n');
  });
});

describe('small commands', () => {
  it('answers id, whoami, date, ls and rm like toybox', async () => {
    expect(await shell('whoami')).toBe('shell\n');
    expect(await shell('id')).toMatch(/^uid=2000\(shell\) gid=2000\(shell\)/);
    expect(Number((await shell('date +%s')).trim())).toBeGreaterThan(1_600_000_000);
    expect(await shell('ls /sdcard/Download')).toContain('welcome.txt\n');
    expect(await shell('rm -f /sdcard/Download/nothing; echo $?')).toBe('0\n');
    expect(await shell('rm /sdcard/Download/nothing')).toContain('No such file or directory');
  });

  it('records reboot requests without restarting', async () => {
    await shell('reboot');
    expect(vd.device.phone.rebootRequests).toEqual(['']);
  });
});
