/**
 * The setup every virtual-device test file shares: a virtual device started and connected to the
 * real adb server before the tests of the enclosing file or describe block, and afterwards
 * disconnected, forgotten by adb (so no transport lingers for a later device on the same port)
 * and closed.
 */
import Adb from '@devicefarmer/adbkit';
import type { Client, DeviceClient } from '@devicefarmer/adbkit';
import { afterAll, beforeAll } from 'vitest';
import {
  connectToAdb,
  disconnectFromAdb,
  startAdbServer,
  startVirtualDevice,
  type VirtualDevice,
  type VirtualDeviceOptions,
} from '../../tools/devices/virtual';

export interface VirtualDeviceHarness {
  /** The device; available from beforeAll on. */
  readonly device: VirtualDevice;
  /** adbkit's handle on the device. */
  readonly phone: DeviceClient;
  /** Runs a command with adbkit's shell (v1: stdout and stderr merged, no exit status), returns its output. */
  shell(command: string | string[]): Promise<string>;
  /** The `input tap X Y` of the centre of the first node on screen whose attributes contain `attribute`. */
  tapOn(attribute: string): Promise<string>;
}

/** The centre of the first node in a uiautomator dump whose attributes contain `attribute`. */
export function centreOf(xml: string, attribute: string): { x: number; y: number } {
  const node = [...xml.matchAll(/<node ([^>]*?)\/?>/g)].find(([, attrs = '']) => attrs.includes(attribute));
  const bounds = /bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"/.exec(node?.[1] ?? '');
  if (!bounds) throw new Error(`no node with ${attribute} on screen`);
  const [l, t, r, b] = bounds.slice(1).map(Number) as [number, number, number, number];
  return { x: Math.round((l + r) / 2), y: Math.round((t + b) / 2) };
}

/**
 * An adbkit client of the adb server the adb CLI (and so connectToAdb) talks to: the CLI follows
 * ANDROID_ADB_SERVER_PORT, adbkit does not on its own.
 */
export function adbClient(): Client {
  const port = Number(process.env.ANDROID_ADB_SERVER_PORT);
  return Adb.createClient({ port: Number.isInteger(port) && port > 0 ? port : 5037 });
}

/** Registers beforeAll/afterAll in the calling scope (file or describe) and returns the device's handles. */
export function useVirtualDevice(options: VirtualDeviceOptions = {}): VirtualDeviceHarness {
  let device: VirtualDevice | undefined;
  let phone: DeviceClient | undefined;

  beforeAll(async () => {
    await startAdbServer();
    device = await startVirtualDevice(options);
    await connectToAdb(device);
    phone = adbClient().getDevice(device.serial);
  });

  afterAll(async () => {
    if (!device) return;
    device.faults = {};
    await disconnectFromAdb(device);
    await device.close();
  });

  const harness: VirtualDeviceHarness = {
    get device() {
      if (!device) throw new Error('the virtual device starts in beforeAll');
      return device;
    },
    get phone() {
      if (!phone) throw new Error('the virtual device starts in beforeAll');
      return phone;
    },
    shell: async (command) => (await Adb.util.readAll(await harness.phone.shell(command))).toString('utf8'),
    async tapOn(attribute) {
      const { x, y } = centreOf(await harness.shell('uiautomator dump /dev/tty'), attribute);
      return `input tap ${x} ${y}`;
    },
  };
  return harness;
}
