/**
 * The demo phone for `toolgate serve --virtual-device[=PROFILE]`: starts the virtual device in this process
 * and connects it to the device service's adb server (adbkit's `host:connect`, so a remote or
 * non-default server works too), then waits until the service tracks it as online.
 */
import { type Clock, sleep, systemClock } from '../core/pipeline/clock';
import type { DeviceService } from './device-service';
import { raceDeadline, startDeadline } from './manager/adb-channel';
import { DeviceIoError } from './manager/device-io-error';
import {
  type LinkPreset,
  type LinkSettings,
  type ProfileName,
  type VirtualDevice,
  startVirtualDevice,
} from './virtual';

export interface AttachedVirtualDevice {
  device: VirtualDevice;
  serial: string;
  /** Disconnects it from adb and stops it. */
  close(): Promise<void>;
}

/** The demo phone's family, display and cable. */
export interface VirtualDemoOptions {
  profile?: ProfileName;
  /** Overrides the size of the profile's display that is on. */
  screen?: { width: number; height: number };
  link?: LinkPreset | LinkSettings;
}

export async function attachVirtualDevice(
  service: DeviceService,
  opts: VirtualDemoOptions & { port?: number; timeoutMs?: number; clock?: Clock } = {},
): Promise<AttachedVirtualDevice> {
  const clock = opts.clock ?? systemClock;
  const timeoutMs = opts.timeoutMs ?? 20_000;
  await service.start();
  const device = await startVirtualDevice({
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.profile ? { profile: opts.profile } : {}),
    ...(opts.screen ? { screen: opts.screen } : {}),
    ...(opts.link ? { link: opts.link } : {}),
  });
  const client = service.manager.client;
  const disconnect = async () => {
    const deadline = startDeadline(clock, 5_000, device.serial, 'adb disconnect');
    await raceDeadline<unknown>(
      client.disconnect('127.0.0.1', device.port),
      deadline.signal,
      () => new Error('timeout'),
    ).catch(() => undefined);
    deadline.dispose();
  };
  try {
    const deadline = startDeadline(clock, timeoutMs, device.serial, 'adb connect');
    try {
      await raceDeadline(
        client.connect('127.0.0.1', device.port),
        deadline.signal,
        () => new DeviceIoError('timeout', 'adb connect did not finish', device.serial),
      );
      while (service.manager.tracker.get(device.serial)?.state !== 'device') {
        if (deadline.signal.aborted)
          throw new DeviceIoError('timeout', `${device.serial} did not come online`, device.serial);
        await service.manager.tracker.check();
        await sleep(clock, 100, deadline.signal);
      }
    } finally {
      deadline.dispose();
    }
  } catch (e) {
    await disconnect();
    await device.close();
    throw e;
  }
  return {
    device,
    serial: device.serial,
    async close() {
      await disconnect();
      await device.close();
      await service.manager.tracker.check().catch(() => undefined);
    },
  };
}
