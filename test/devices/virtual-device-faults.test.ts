/**
 * Rule: each injected fault looks to the real adb server and adbkit like the real failure —
 * an unplugged cable (stream ends, device offline, adb reconnects it, `adb connect` brings it back),
 * a hung command (no answer, ever), an unauthorized device (adb connect fails to authenticate), a
 * refused service, latency.
 */
import Adb from '@devicefarmer/adbkit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  adbState,
  connectToAdb,
  disconnectFromAdb,
  startVirtualDevice,
  waitForAdbState,
  type VirtualDevice,
} from '../../tools/devices/virtual';
import { adbClient, useVirtualDevice } from './virtual-device-harness';

const vd = useVirtualDevice();

afterEach(() => {
  vd.device.faults = {};
});

describe('unplug', () => {
  // A device of its own: a reconnect gone wrong here must not take the other faults' device with it.
  const cable = useVirtualDevice();

  /** Pulls the cable and keeps it out; resolves once adb shows the device offline. */
  async function pullAndHoldOut(): Promise<void> {
    cable.device.faults = { refuseConnections: true };
    cable.device.unplug();
    await waitForAdbState(cable.device.serial, 'offline');
  }

  afterEach(() => {
    cable.device.faults = {};
  });

  /** Runs a command as soon as adb has the device back; 'device offline' answers only mean not yet. */
  async function shellOnceBack(command: string, withinMs = 20_000): Promise<string> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      try {
        await waitForAdbState(cable.device.serial, 'device');
        return await cable.shell(command);
      } catch (e) {
        if (!/offline|not found/i.test(String(e)) || Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  it('ends a running command with no output and keeps the device offline while the cable stays out', async () => {
    const { device } = cable;
    device.faults = { unplugMidCommand: true, refuseConnections: true };
    expect(await cable.shell('echo never-printed')).toBe('');
    expect(device.commandLog.at(-1)).toBe('echo never-printed');
    expect(device.executedCommands).not.toContainEqual(['echo', 'never-printed']);

    await waitForAdbState(device.serial, 'offline');
    await expect(cable.shell('echo while-offline')).rejects.toThrow(/offline/);
  });

  it('is reconnected by adb on its own once the device accepts connections again', async () => {
    await pullAndHoldOut();
    cable.device.faults = {};
    expect(await shellOnceBack('echo again')).toBe('again\n');
  });

  it('is reconnected by adb on its own after the cable is pulled mid-command and put straight back', async () => {
    cable.device.faults = { unplugMidCommand: true };
    // The stream ending empty means adb saw the link drop: it closes a transport's streams when it goes offline.
    expect(await cable.shell('echo cut-short')).toBe('');
    cable.device.faults = {};
    // adb may still list the old transport as `device` for a moment before it marks it offline and
    // reconnects: what counts is that a command works again without anyone reconnecting by hand.
    expect(await shellOnceBack('echo back')).toBe('back\n');
  });

  it('is brought back by connectToAdb while adb still lists it offline', async () => {
    await pullAndHoldOut();
    cable.device.faults = {};
    await connectToAdb(cable.device);
    expect(await adbState(cable.device.serial)).toBe('device');
    expect(await cable.shell('echo reconnected')).toBe('reconnected\n');
  });

  it('is forgotten by adb once disconnectFromAdb returns, even mid-retry; adb connect brings it back', async () => {
    await pullAndHoldOut();
    await disconnectFromAdb(cable.device);
    expect(await adbState(cable.device.serial)).toBeNull();
    cable.device.faults = {};
    await connectToAdb(cable.device);
    expect(await adbState(cable.device.serial)).toBe('device');
    expect(await cable.shell('echo connected')).toBe('connected\n');
  });
});

describe('hang', () => {
  it('never answers a command, while the device itself stays reachable', async () => {
    const { device, phone } = vd;
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
    expect(await vd.shell('echo answered')).toBe('answered\n');
  });
});

describe('refused service', () => {
  it('refuses the next OPEN with CLSE (adbkit: closed), logs why, then serves again', async () => {
    vd.device.faults = { failNextOpen: 'adbd is busy' };
    await expect(vd.shell('echo refused')).rejects.toThrow(/closed/);
    expect(vd.device.faults.failNextOpen).toBeUndefined();
    expect(await vd.shell('echo served')).toBe('served\n');
    expect(await vd.shell('logcat -d -s adbd')).toContain("refused service 'shell:echo refused': adbd is busy");
  });
});

describe('latency', () => {
  it('delays every message yet keeps results and their order intact', async () => {
    vd.device.faults = { latencyMs: 20 };
    const results = await Promise.all(['a', 'b', 'c'].map((word) => vd.shell(`echo ${word}`)));
    expect(results).toEqual(['a\n', 'b\n', 'c\n']);
    const bytes = await Adb.util.readAll(await vd.phone.screencap());
    expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  });
});

describe('unauthorized', () => {
  let locked: VirtualDevice | undefined;

  afterAll(async () => {
    if (!locked) return;
    await disconnectFromAdb(locked);
    await locked.close();
  });

  it('makes adb connect fail to authenticate and lists the device as unauthorized', async () => {
    const device = await startVirtualDevice();
    locked = device;
    device.faults.unauthorized = true;
    await expect(connectToAdb(device)).rejects.toThrow(/failed to authenticate/);
    await waitForAdbState(device.serial, 'unauthorized');
    await expect(Promise.resolve(adbClient().getDevice(device.serial).shell('echo no'))).rejects.toThrow(
      /unauthorized/,
    );
    expect(device.commandLog).toEqual([]);
    expect(await adbState(device.serial)).toBe('unauthorized');
  });
});
