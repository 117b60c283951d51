/**
 * Rule: each injected fault looks to the real adb server and adbkit like the real failure —
 * an unplugged cable (stream ends, device offline, reconnect works), a hung command (no answer,
 * ever), an unauthorized device (adb connect fails to authenticate), a refused service, latency.
 */
import Adb from '@devicefarmer/adbkit';
import type { DeviceClient } from '@devicefarmer/adbkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adbState,
  connectToAdb,
  disconnectFromAdb,
  startAdbServer,
  startVirtualDevice,
  waitForAdbState,
  type VirtualDevice,
} from '../../tools/devices/virtual';

let device: VirtualDevice;
let phone: DeviceClient;

async function shell(command: string): Promise<string> {
  return (await Adb.util.readAll(await phone.shell(command))).toString('utf8');
}

beforeAll(async () => {
  await startAdbServer();
  device = await startVirtualDevice();
  await connectToAdb(device);
  phone = Adb.createClient().getDevice(device.serial);
});

afterAll(async () => {
  device.faults = {};
  await disconnectFromAdb(device.serial);
  await device.close();
});

describe('unplug', () => {
  it('ends a running command with no output, shows the device offline, and reconnects with adb connect', async () => {
    device.faults = { unplugMidCommand: true, refuseConnections: true };
    expect(await shell('echo never-printed')).toBe('');
    expect(device.commandLog.at(-1)).toBe('echo never-printed');
    expect(device.executedCommands).not.toContainEqual(['echo', 'never-printed']);

    await waitForAdbState(device.serial, 'offline');
    await expect(shell('echo while-offline')).rejects.toThrow(/offline/);

    device.faults = {};
    await connectToAdb(device);
    expect(await shell('echo back')).toBe('back\n');
  });

  it('is reconnected by adb on its own once the device accepts connections again', async () => {
    device.unplug();
    await waitForAdbState(device.serial, 'device');
    expect(await shell('echo again')).toBe('again\n');
  });
});

describe('hang', () => {
  it('never answers a command, while the device itself stays reachable', async () => {
    device.faults = { hang: true };
    const stuck = await phone.shell('echo stuck');
    const received: Buffer[] = [];
    let ended = false;
    stuck.on('data', (chunk: Buffer) => received.push(chunk));
    stuck.on('end', () => (ended = true));

    // A sync round trip issued after the command proves the device has handled it by now.
    expect((await phone.stat('/sdcard')).isDirectory()).toBe(true);
    expect(received).toEqual([]);
    expect(ended).toBe(false);
    expect(device.commandLog.at(-1)).toBe('echo stuck');
    expect(device.executedCommands).not.toContainEqual(['echo', 'stuck']);

    device.faults = {};
    stuck.destroy();
    expect(await shell('echo answered')).toBe('answered\n');
  });
});

describe('refused service', () => {
  it('refuses the next OPEN with CLSE (adbkit: closed), logs why, then serves again', async () => {
    device.faults = { failNextOpen: 'adbd is busy' };
    await expect(shell('echo refused')).rejects.toThrow(/closed/);
    expect(device.faults.failNextOpen).toBeUndefined();
    expect(await shell('echo served')).toBe('served\n');
    expect(await shell('logcat -d -s adbd')).toContain("refused service 'shell:echo refused': adbd is busy");
  });
});

describe('latency', () => {
  it('delays every message yet keeps results and their order intact', async () => {
    device.faults = { latencyMs: 20 };
    const results = await Promise.all(['a', 'b', 'c'].map((word) => shell(`echo ${word}`)));
    expect(results).toEqual(['a\n', 'b\n', 'c\n']);
    const bytes = await Adb.util.readAll(await phone.screencap());
    expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
    device.faults = {};
  });
});

describe('unauthorized', () => {
  let locked: VirtualDevice;

  afterAll(async () => {
    await disconnectFromAdb(locked.serial);
    await locked.close();
  });

  it('makes adb connect fail to authenticate and lists the device as unauthorized', async () => {
    locked = await startVirtualDevice();
    locked.faults.unauthorized = true;
    await expect(connectToAdb(locked)).rejects.toThrow(/failed to authenticate/);
    await waitForAdbState(locked.serial, 'unauthorized');
    await expect(Promise.resolve(Adb.createClient().getDevice(locked.serial).shell('echo no'))).rejects.toThrow(/unauthorized/);
    expect(locked.commandLog).toEqual([]);
    expect(await adbState(locked.serial)).toBe('unauthorized');
  });
});
