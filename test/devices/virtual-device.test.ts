/**
 * Rule: the virtual device is a real ADB device to the real adb server — `adb connect` accepts it,
 * `adb devices` lists it, and both adbkit (shell v1, sync) and the adb CLI (shell v2, exec) drive it.
 */
import Adb from '@devicefarmer/adbkit';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { runAdb } from '../../tools/devices/virtual';
import { useVirtualDevice } from './virtual-device-harness';

const vd = useVirtualDevice({ model: 'Spec Phone' });
const { shell } = vd;

/** The adb CLI, which reports the exit status through shell v2. */
async function cli(...args: string[]): Promise<{ status: number; out: string }> {
  try {
    return { status: 0, out: await runAdb(['-s', vd.device.serial, ...args]) };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { status: e.code ?? -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('virtual device on the real adb server', () => {
  it('is listed by `adb devices -l` as a device, with its model and product', async () => {
    const out = await runAdb(['devices', '-l']);
    const line = out.split('\n').find((l) => l.startsWith(`${vd.device.serial} `));
    expect(line).toMatch(/\sdevice\s/);
    expect(line).toContain('model:Spec_Phone');
    expect(line).toContain('product:shiba');
  });

  it('runs a shell command for adbkit and returns its output', async () => {
    expect(await shell('echo hello')).toBe('hello\n');
  });

  it('answers adbkit getProperties from getprop', async () => {
    const props = await vd.phone.getProperties();
    expect(props['ro.product.model']).toBe('Spec Phone');
    expect(props['ro.build.version.sdk']).toBe('35');
    expect(props['sys.boot_completed']).toBe('1');
  });

  it('answers getprop KEY with the bare value', async () => {
    expect(await shell('getprop ro.product.manufacturer')).toBe('Google\n');
  });

  it('lists its features for adbkit', async () => {
    const features = await vd.phone.getFeatures();
    expect(features['android.hardware.touchscreen']).toBe(true);
  });

  it('logs every received command line raw, in order', async () => {
    const before = vd.device.commandLog.length;
    await shell("echo 'one'  two");
    await shell('true');
    expect(vd.device.commandLog.slice(before)).toEqual(["echo 'one'  two", 'true']);
  });

  it('reports unknown commands as sh does: "not found" on stderr, exit status 127 (shell v2)', async () => {
    const result = await cli('shell', 'frobnicate --now');
    expect(result.status).toBe(127);
    expect(result.out).toContain('/system/bin/sh: frobnicate: not found');
  });

  it('passes exit statuses through the adb CLI (shell v2)', async () => {
    expect((await cli('shell', 'true')).status).toBe(0);
    expect((await cli('shell', 'false')).status).toBe(1);
    expect(await cli('shell', 'echo', 'via', 'cli')).toEqual({ status: 0, out: 'via cli\n' });
  });

  it('runs the lines piped into `adb shell` when no command is given', async () => {
    const child = spawn('adb', ['-s', vd.device.serial, 'shell'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdin.end('echo piped\nfalse\n');
    const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(Buffer.concat(chunks).toString()).toBe('piped\n');
    expect(status).toBe(1);
    expect(vd.device.commandLog.slice(-2)).toEqual(['echo piped', 'false']);
  });

  it('serves exec-out with raw bytes: a PNG from screencap -p', async () => {
    const stdout = await new Promise<Buffer>((resolve, reject) =>
      execFile(
        'adb',
        ['-s', vd.device.serial, 'exec-out', 'screencap', '-p'],
        { encoding: 'buffer', maxBuffer: 64 << 20 },
        (err, out) => (err ? reject(err) : resolve(out)),
      ),
    );
    const png = PNG.sync.read(stdout);
    expect([png.width, png.height]).toEqual([vd.device.phone.screen.width, vd.device.phone.screen.height]);
  });

  it('serves adbkit screencap() as a PNG', async () => {
    const bytes = await Adb.util.readAll(await vd.phone.screencap());
    expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  });

  it('serves sync: push, stat, readdir and pull round-trip a file', async () => {
    const content = Buffer.from('line one\nline two\n');
    const transfer = await vd.phone.push(Readable.from([content]), '/sdcard/Download/spec.txt');
    await new Promise<void>((resolve, reject) => transfer.on('end', resolve).on('error', reject));
    const stat = await vd.phone.stat('/sdcard/Download/spec.txt');
    expect(stat.size).toBe(content.length);
    expect(stat.isFile()).toBe(true);
    const names = (await vd.phone.readdir('/sdcard/Download')).map((e: { name: string }) => e.name);
    expect(names).toContain('spec.txt');
    const pulled = await Adb.util.readAll(await vd.phone.pull('/sdcard/Download/spec.txt'));
    expect(pulled.equals(content)).toBe(true);
    expect(await shell('cat /sdcard/Download/spec.txt')).toBe(content.toString());
  });

  it('serves the adb CLI push and pull (stat v2 and ls v2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vd-'));
    writeFileSync(join(dir, 'up.bin'), Buffer.from([0, 1, 2, 250, 251, 252]));
    expect((await cli('push', join(dir, 'up.bin'), '/data/local/tmp/up.bin')).status).toBe(0);
    expect((await cli('pull', '/data/local/tmp/up.bin', join(dir, 'down.bin'))).status).toBe(0);
    expect([...readFileSync(join(dir, 'down.bin'))]).toEqual([0, 1, 2, 250, 251, 252]);
    expect((await cli('shell', 'ls', '/data/local/tmp')).out).toContain('up.bin');
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a push to a read-only location', async () => {
    const transfer = await vd.phone.push(Readable.from([Buffer.from('x')]), '/system/evil.txt');
    const error = await new Promise<Error | null>((resolve) =>
      transfer.on('end', () => resolve(null)).on('error', resolve),
    );
    expect(error?.message).toContain('Read-only file system');
  });
});
