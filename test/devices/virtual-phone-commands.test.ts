/**
 * Rule: logcat, monkey, am start, am force-stop, pm and dumpsys input (its devices and the
 * touchscreen's display) answer as the AOSP sources FORMATS.md names
 * print, on the stream a phone uses and with its exit status (adb CLI, shell v2) — "Packages,
 * activities, the log and the clock". Each expectation names the source line it follows.
 */
import Adb from '@devicefarmer/adbkit';
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { VirtualDeviceHarness } from './virtual-device-harness';
import { useVirtualDevice } from './virtual-device-harness';

interface Streams {
  status: number;
  stdout: string;
  stderr: string;
}

/** `adb -s SERIAL shell CMD` with shell v2: stdout, stderr and the exit status apart. */
function streams(vd: VirtualDeviceHarness, command: string): Promise<Streams> {
  return new Promise((resolve) => {
    execFile('adb', ['-s', vd.device.serial, 'shell', command], (err, stdout, stderr) => {
      const status = err ? ((err as { code?: number }).code ?? -1) : 0;
      resolve({ status, stdout, stderr });
    });
  });
}

describe('on Android 15 (pixel)', () => {
  const vd = useVirtualDevice();
  const log = (level: 'V' | 'D' | 'I', tag: string, message: string) =>
    vd.device.phone.log.add(level, tag, message, 4100);

  describe('logcat', () => {
    it('counts -t N before the tag filter, so a sparse tag gives fewer than N lines', async () => {
      for (let i = 0; i < 3; i++) log('I', 'Sparse', `sparse ${i}`);
      for (let i = 0; i < 10; i++) log('I', 'Noise', `noise ${i}`);
      expect((await streams(vd, 'logcat -d -t 5 -s Sparse:V')).stdout).toBe('');
      const wider = (await streams(vd, 'logcat -d -t 12 -s Sparse:V')).stdout.trim().split('\n');
      expect(wider.slice(1).map((l) => l.replace(/^.*: /, ''))).toEqual(['sparse 1', 'sparse 2']);
    });

    it('counts -t N before -e, and --pid before -t (logd applies the pid)', async () => {
      vd.device.phone.log.add('I', 'Pid', 'of 4200', 4200);
      for (let i = 0; i < 4; i++) log('I', 'Noise', `later ${i}`);
      expect((await streams(vd, 'logcat -d -t 3 -e "^of "')).stdout).toBe('');
      expect((await streams(vd, 'logcat -d -t 1 --pid=4200')).stdout).toMatch(/ I Pid +: of 4200\n$/);
    });

    it('takes a bare * as *:D (android_log_addFilterRule)', async () => {
      log('V', 'Level', 'verbose line');
      log('D', 'Level', 'debug line');
      const out = (await streams(vd, "logcat -d -t 2 '*'")).stdout;
      expect(out).toContain('debug line');
      expect(out).not.toContain('verbose line');
    });

    it('pads the tag to 8 columns in brief, time and tag (%-8.*s)', async () => {
      log('I', 'Pad', 'padded');
      const lastLine = async (format: string) =>
        (await streams(vd, `logcat -d -t 1 -v ${format}`)).stdout.trim().split('\n').pop();
      expect(await lastLine('brief')).toBe('I/Pad     ( 4100): padded');
      expect(await lastLine('tag')).toBe('I/Pad     : padded');
      expect(await lastLine('time')).toMatch(/^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} I\/Pad {5}\( 4100\): padded$/);
    });

    it('keeps following after -T N, which does not imply -d', async () => {
      log('I', 'Follow', 'before');
      const stream = await vd.phone.shell('logcat -T 1 -s Follow');
      let text = '';
      stream.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      await expect.poll(() => text).toContain('before');
      log('I', 'Follow', 'after the dump');
      await expect.poll(() => text).toContain('after the dump');
      stream.end();
      await Adb.util.readAll(stream).catch(() => undefined);
    });
  });

  describe('monkey', () => {
    it('echoes its arguments as monkey.sh and Monkey.java do, and injects one event', async () => {
      const r = await streams(vd, 'monkey -p com.example.notes -c android.intent.category.LAUNCHER 1');
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(
        '  bash arg: -p\n  bash arg: com.example.notes\n  bash arg: -c\n' +
          '  bash arg: android.intent.category.LAUNCHER\n  bash arg: 1\nEvents injected: 1\n' +
          '## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n',
      );
      expect(r.stderr).toBe(
        'args: [-p, com.example.notes, -c, android.intent.category.LAUNCHER, 1]\n' +
          ' arg: "-p"\n arg: "com.example.notes"\n arg: "-c"\n arg: "android.intent.category.LAUNCHER"\n arg: "1"\n' +
          'data="com.example.notes"\ndata="android.intent.category.LAUNCHER"\n',
      );
    });

    it('prints the abort line on standard output (Logger.out) with status 252 (-4)', async () => {
      const r = await streams(vd, 'monkey -p com.nobody.here -c android.intent.category.LAUNCHER 1');
      expect(r.status).toBe(252);
      expect(r.stdout.endsWith('  bash arg: 1\n** No activities found to run, monkey aborted.\n')).toBe(true);
      expect(r.stderr).not.toContain('aborted');
    });
  });

  describe('am start', () => {
    it('prints "Error type 3" only for a class not found, on stderr without -W and stdout with it', async () => {
      const plain = await streams(vd, 'am start -n com.example.notes/.Nope');
      expect(plain).toEqual({
        status: 1,
        stdout: 'Starting: Intent { cmp=com.example.notes/.Nope }\n',
        stderr: 'Error type 3\nError: Activity class {com.example.notes/com.example.notes.Nope} does not exist.\n',
      });
      const waited = await streams(vd, 'am start -W -n com.example.notes/.Nope');
      expect(waited.stderr).toBe('');
      expect(waited.stdout).toContain(
        '}\nError type 3\nError: Activity class {com.example.notes/com.example.notes.Nope}',
      );
    });

    it('shows flg=0x10000000 in an unresolved intent, without "Error type 3"', async () => {
      const r = await streams(vd, 'am start -a com.acme.NOTHING');
      expect(r.stdout).toBe('Starting: Intent { act=com.acme.NOTHING }\n');
      expect(r.stderr).toBe(
        'Error: Activity not started, unable to resolve Intent { act=com.acme.NOTHING flg=0x10000000 }\n',
      );
    });

    it('prints "Stopping: PKG" for -S before starting', async () => {
      const r = await streams(vd, 'am start -S -n com.example.shop/.ShopActivity');
      expect(r.stdout).toBe('Stopping: com.example.shop\nStarting: Intent { cmp=com.example.shop/.ShopActivity }\n');
    });
  });

  describe('am force-stop', () => {
    it('stops only the first operand', async () => {
      await streams(vd, 'am start -n com.example.shop/.ShopActivity; am start -n com.example.notes/.MainActivity');
      expect(await streams(vd, 'am force-stop com.example.notes com.example.shop')).toEqual({
        status: 0,
        stdout: '',
        stderr: '',
      });
      expect((await streams(vd, 'pidof com.example.shop')).stdout).toMatch(/^\d+\n$/);
      expect((await streams(vd, 'pidof com.example.notes')).status).toBe(1);
    });

    it("throws getNextArgRequired's exception without a package, status 255", async () => {
      const r = await streams(vd, 'am force-stop');
      expect(r.status).toBe(255);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^\nException occurred while executing 'force-stop':\n/);
      expect(r.stderr).toContain('\njava.lang.IllegalArgumentException: Argument expected after "force-stop"\n\tat ');
    });
  });

  describe('dumpsys input', () => {
    it("lists the system's virtual keyboard and the touchscreen's viewport with its orientation", async () => {
      const { stdout } = await streams(vd, 'dumpsys input');
      // EventHub's virtual keyboard (id -1), alphabetic, on every phone; InputDevice::dump.
      expect(stdout).toMatch(/^ {2}Device -1: Virtual\n(?: {4}.*\n)*? {4}KeyboardType: 2\n/m);
      // TouchInputMapper::dumpDisplay prints DisplayViewport::toString (Android 10+).
      const { width, height } = vd.device.phone.screen;
      expect(stdout).toMatch(
        new RegExp(`Viewport INTERNAL: displayId=0, .*orientation=0, logicalFrame=\\[0, 0, ${width}, ${height}\\]`),
      );
    });
  });

  describe('pm', () => {
    it('refuses an unknown option of list packages on standard output, status 255', async () => {
      expect(await streams(vd, 'pm list packages -Z')).toEqual({
        status: 255,
        stdout: 'Error: Unknown option: -Z\n',
        stderr: '',
      });
      const joined = await streams(vd, 'pm list packages -3f');
      expect(joined.status).toBe(255);
      expect(joined.stderr).toContain('java.lang.IllegalArgumentException: No argument expected after "-3f"');
    });

    it('prints the Android 11+ code path with -f, and pm path agrees', async () => {
      const line = (await streams(vd, 'pm list packages -f com.example.notes')).stdout;
      const path =
        /^package:(\/data\/app\/~~[\w-]{22}==\/com\.example\.notes-[\w-]{22}==\/base\.apk)=com\.example\.notes\n$/.exec(
          line,
        )?.[1];
      expect(path).toBeDefined();
      expect((await streams(vd, 'pm path com.example.notes')).stdout).toBe(`package:${path}\n`);
    });

    it('uninstalls for one user: "not installed for N" when it lacks it, a system app removed for it', async () => {
      expect(await streams(vd, 'pm uninstall --user 0 com.nobody.here')).toEqual({
        status: 1,
        stdout: 'Failure [not installed for 0]\n',
        stderr: '',
      });
      expect((await streams(vd, 'pm uninstall com.android.music')).stdout).toBe(
        'Failure [DELETE_FAILED_INTERNAL_ERROR]\n',
      );
      expect((await streams(vd, 'pm uninstall --user 0 com.android.music')).stdout).toBe('Success\n');
      expect((await streams(vd, 'pm list packages com.android.music')).stdout).toBe('');
      expect((await streams(vd, 'pm list packages -u com.android.music')).stdout).toBe('package:com.android.music\n');
      expect((await streams(vd, 'pm uninstall --user 0 com.android.music')).stdout).toBe(
        'Failure [not installed for 0]\n',
      );
    });
  });
});

describe('on Android 9 (legacy)', () => {
  const vd = useVirtualDevice({ profile: 'legacy' });

  it('prints the Android 8–10 code path: PKG-RANDOM== directly under /data/app', async () => {
    expect((await streams(vd, 'pm list packages -f com.example.notes')).stdout).toMatch(
      /^package:\/data\/app\/com\.example\.notes-[\w-]{22}==\/base\.apk=com\.example\.notes\n$/,
    );
  });

  it("says the touchscreen's orientation as Android 9's TouchInputMapper::dumpSurface did", async () => {
    const { stdout } = await streams(vd, 'dumpsys input');
    expect(stdout).toMatch(/^ {6}SurfaceOrientation: 0$/m);
    expect(stdout).not.toContain('Viewport INTERNAL');
  });

  it('reports a missing force-stop package as ShellCommand did before Android 11', async () => {
    const r = await streams(vd, 'am force-stop');
    expect(r.status).toBe(255);
    expect(r.stderr).toMatch(/^\nException occurred while executing:\n/);
    expect(r.stderr).toContain(
      'IllegalArgumentException: Argument expected after "force-stop"\n\tat android.os.ShellCommand.',
    );
  });
});
