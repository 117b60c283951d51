/**
 * Rule (docs/architecture.md#tool-families, docs/architecture.md#real-components): one adbkit
 * client per host tracks the devices of an adb server; every device tool takes an optional serial —
 * the only device is the default, several without a choice is an error that lists them, none is an
 * error that says how to attach one; a device that drops off shows as offline; a missing adb or an
 * unreachable server is one clear error; every command has a deadline.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachVirtualDevice, createDeviceService } from '../../tools/devices';
import { telemetryKey } from '../../tools/devices/manager/device-telemetry';
import { connectToAdb, waitForAdbState } from '../../tools/devices/virtual';
import { type DeviceLab, startDeviceLab, textOf } from './device-lab';
import { freePort } from '../support/private-adb';

let lab: DeviceLab;

beforeAll(async () => {
  lab = await startDeviceLab({ devices: 0, commandTimeoutMs: 2_000 });
});

afterAll(async () => {
  await lab?.close();
});

describe('when adb itself is not usable', () => {
  it('explains how to install adb when the program is missing', async () => {
    // A port no adb server listens on (a fixed one such as 1 may hold a server another test started).
    const service = createDeviceService({
      adbPort: await freePort(),
      adbPath: '/nonexistent/bin/adb',
      commandTimeoutMs: 2_000,
    });
    const result = await service.resolveSerial().then(
      () => undefined,
      (e: { toolErrorCode?: string; message: string; hint?: string }) => e,
    );
    expect(result?.toolErrorCode).toBe('EXECUTION_FAILED');
    expect(result?.message).toMatch(/adb program .* was not found/);
    expect(result?.hint).toMatch(/apt-get install adb/);
    expect(result?.hint).toMatch(/platform-tools/);
    await service.close();
  });

  it('says the remote adb server does not answer instead of waiting forever, and starts no local one', async () => {
    const service = createDeviceService({ adbHost: '127.0.0.2', adbPort: 9, commandTimeoutMs: 2_000 });
    const failure = await service
      .resolveSerial()
      .catch((e: { toolErrorCode: string; message: string; hint: string }) => e);
    expect(failure).toMatchObject({ toolErrorCode: 'EXECUTION_FAILED' });
    expect((failure as { message: string }).message).toMatch(/No adb server answers at 127\.0\.0\.2:9/);
    expect((failure as { hint: string }).hint).toMatch(/adb start-server|remote adb host/);
    await service.close();
    const local = await new Promise<string>((resolve) => {
      const socket = connect(9, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve('listening')));
      socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    expect(local).toBe('ECONNREFUSED');
  });
});

describe('choosing the device', () => {
  it('with no device attached, fails with a fix: attach a phone, adb connect, or the virtual device', async () => {
    const result = await lab.call('get_time');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('NOT_FOUND');
    expect(result.error.message).toBe('No Android device is attached.');
    expect(result.error.hint).toMatch(/USB debugging/);
    expect(result.error.hint).toMatch(/adb connect HOST:PORT/);
    expect(result.error.hint).toMatch(/--virtual-device/);
  });

  it('with one device attached, uses it when no serial is given', async () => {
    const device = await lab.addDevice();
    const result = await lab.call('get_device_info');
    expect(result.ok).toBe(true);
    expect((result as { structured: { serial: string } }).structured.serial).toBe(device.serial);
  });

  it('with several devices and no serial, refuses and lists every serial', async () => {
    const second = await lab.addDevice();
    const result = await lab.call('get_time');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_ARGUMENT');
    for (const d of lab.devices) expect(result.error.message).toContain(d.serial);
    expect(result.error.data?.serials).toEqual(expect.arrayContaining(lab.devices.map((d) => d.serial)));
    expect(result.error.data?.fields).toEqual(['serial']);

    const chosen = await lab.call('shell_execute', { command: 'getprop ro.serialno', serial: second.serial });
    expect(textOf(chosen)).toContain(second.phone.props.get('ro.serialno'));
  });

  it('runs commands on several devices at once, each on its own', async () => {
    const [a, b] = lab.devices;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        lab.call('shell_execute', { command: `echo call-${i}; getprop ro.serialno`, serial: (i % 2 ? b : a)!.serial }),
      ),
    );
    for (const [i, r] of results.entries())
      expect(textOf(r)).toContain(`call-${i}\n${(i % 2 ? b : a)!.phone.props.get('ro.serialno')}`);
  });

  it('refuses an unknown serial as NOT_FOUND, naming the attached ones', async () => {
    const result = await lab.call('get_time', { serial: 'no-such-phone' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('NOT_FOUND');
    expect(result.error.message).toContain("Device 'no-such-phone' is not attached.");
    for (const d of lab.devices) expect(result.error.message).toContain(d.serial);
  });

  it('lists the devices with their state and model for the host', async () => {
    await lab.service.manager.tracker.check();
    const listed = lab.service.devices();
    expect(listed.map((d) => d.serial).sort()).toEqual(lab.devices.map((d) => d.serial).sort());
    expect(listed.every((d) => d.state === 'device')).toBe(true);
    await expect.poll(() => lab.service.devices().every((d) => d.model === 'Pixel 8')).toBe(true);
  });
});

describe('tracking', () => {
  it('sees a device that dropped off as offline without an adb event, and online again after adb connect', async () => {
    const device = lab.devices[0]!;
    const changes: string[] = [];
    const sub = lab.service.onDevicesChanged((c) => c.serial === device.serial && changes.push(c.to));
    device.faults = { refuseConnections: true };
    device.unplug();
    await waitForAdbState(device.serial, 'offline');
    await lab.service.manager.tracker.check();
    expect(lab.service.manager.tracker.get(device.serial)?.state).toBe('offline');
    expect(lab.service.telemetry.store.read(telemetryKey(device.serial, 'online'))?.value).toBe(false);

    // Known offline: the environment gate refuses before the tool runs, with the reconnect fix.
    const refused = await lab.call('get_time', { serial: device.serial });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.message).toBe(`'get_time' was not run: device ${device.serial} is offline or disconnected`);
      expect(refused.error.hint).toContain(`adb connect ${device.serial}`);
      expect(refused.error.data).toMatchObject({ gate: 'environment', rule: 'device-offline' });
    }

    device.faults = {};
    await connectToAdb(device);
    await lab.service.manager.tracker.check();
    expect(lab.service.manager.tracker.get(device.serial)?.state).toBe('device');
    expect(lab.service.telemetry.store.read(telemetryKey(device.serial, 'online'))?.value).toBe(true);
    expect((await lab.call('get_time', { serial: device.serial })).ok).toBe(true);
    expect(changes).toContain('offline');
    expect(changes.at(-1)).toBe('device');
    sub.dispose();
  });

  it('forgets a device that was disconnected', async () => {
    const device = lab.devices[1]!;
    await lab.removeDevice(device);
    expect(lab.service.devices().map((d) => d.serial)).not.toContain(device.serial);
    expect(lab.service.telemetry.store.read(telemetryKey(device.serial, 'online'))?.value).toBe(false);
  });
});

describe('the demo phone (--virtual-device)', () => {
  it("attaches to the service's own adb server, answers tools, and detaches", async () => {
    const demo = await attachVirtualDevice(lab.service);
    expect(lab.service.manager.tracker.get(demo.serial)?.state).toBe('device');
    const info = await lab.call('get_device_info', { serial: demo.serial });
    expect(info.ok && (info.structured as { model: string }).model).toBe('Pixel 8');
    await demo.close();
    expect(lab.service.manager.tracker.get(demo.serial)).toBeUndefined();
  });
});

describe('deadlines', () => {
  it('ends a command the device never answers with TIMEOUT and a fix, and the next command works', async () => {
    const device = lab.devices[0]!;
    device.faults = { hang: true };
    const result = await lab.call('get_time');
    device.faults = {};
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('TIMEOUT');
    expect(result.error.message).toMatch(/did not finish within 2 s/);
    expect(result.error.hint).toMatch(/busy, frozen|reconnect|adb connect/);
    expect((await lab.call('get_time')).ok).toBe(true);
  });

  it('stops a command when the caller cancels it', async () => {
    const device = lab.devices[0]!;
    device.faults = { hang: true };
    const controller = new AbortController();
    const pending = lab.service.manager.shell(device.serial, 'echo never', {
      signal: controller.signal,
      timeoutMs: 60_000,
    });
    setImmediate(() => controller.abort());
    await expect(pending).rejects.toMatchObject({ toolErrorCode: 'EXECUTION_FAILED', data: { cancelled: true } });
    device.faults = {};
  });
});
