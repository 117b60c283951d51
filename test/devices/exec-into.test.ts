/**
 * Rule (tools/devices/manager/adb-exec-into.ts): a command's output read into one reused buffer,
 * through the real adb server, is the output `exec` gives, in order, also when the sink makes the
 * socket wait; it fails as `exec` fails (an unknown phone, the deadline, the caller's cancel), stops
 * at its byte bound, and starts a local adb server that is not running, as adbkit's path does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ByteSink } from '../../tools/devices/manager/adb-exec-into';
import { DeviceManager } from '../../tools/devices/manager/device-manager';
import type { VirtualDevice } from '../../tools/devices/virtual';
import { freePort, killAdbServer } from '../support/private-adb';
import { type DeviceLab, startDeviceLab } from './device-lab';

let lab: DeviceLab;
let device: VirtualDevice;

beforeAll(async () => {
  lab = await startDeviceLab({ commandTimeoutMs: 5_000 });
  device = lab.devices[0]!;
});

afterAll(async () => {
  await lab?.close();
});

/** A sink that copies what it is given (its buffer is reused) and, when `slow`, makes each write wait a moment. */
function collecting(slow = false): ByteSink & { bytes(): Buffer; waits: number } {
  const parts: Buffer[] = [];
  let release: Promise<void> = Promise.resolve();
  const sink = {
    waits: 0,
    write(bytes: Buffer) {
      parts.push(Buffer.from(bytes));
      if (!slow) return true;
      sink.waits++;
      release = new Promise((resolve) => setTimeout(resolve, 1));
      return false;
    },
    drained: () => release,
    bytes: () => Buffer.concat(parts),
  };
  return sink;
}

describe('execInto', () => {
  const manager = () => lab.service.manager;

  it("gives the bytes exec gives, from a command's whole output", async () => {
    const sink = collecting();
    const result = await manager().execInto(device.serial, 'getprop', sink);
    const { data } = await manager().exec(device.serial, 'getprop');
    expect(sink.bytes().equals(data)).toBe(true);
    expect(result).toEqual({ size: data.length, truncated: false });
  });

  it('delivers a 10 MB frame whole and in order while the sink makes the socket wait after every read', async () => {
    const sink = collecting(true);
    const result = await manager().execInto(device.serial, 'screencap', sink, { maxBytes: 64 << 20 });
    const { width, height } = device.phone.screen;
    expect(result.size).toBe(16 + width * height * 4);
    expect(sink.bytes().length).toBe(result.size);
    expect(sink.bytes().readUInt32LE(0)).toBe(width);
    expect(sink.waits).toBeGreaterThan(10);
  });

  it('stops at its byte bound and says so', async () => {
    const sink = collecting();
    const result = await manager().execInto(device.serial, 'screencap', sink, { maxBytes: 100_000 });
    expect(result).toEqual({ size: 100_000, truncated: true });
    expect(sink.bytes().length).toBe(100_000);
  });

  it('fails for a phone adb does not know as exec fails', async () => {
    const viaExec = await manager()
      .exec('emulator-5999', 'getprop')
      .catch((e: unknown) => e);
    const viaSink = await manager()
      .execInto('emulator-5999', 'getprop', collecting())
      .catch((e: unknown) => e);
    expect(viaSink).toMatchObject({
      toolErrorCode: (viaExec as { toolErrorCode: string }).toolErrorCode,
      message: (viaExec as Error).message,
    });
  });

  it('ends with TIMEOUT at its deadline, and with a cancellation when the caller cancels', async () => {
    await expect(manager().execInto(device.serial, 'sleep 5', collecting(), { timeoutMs: 300 })).rejects.toMatchObject({
      toolErrorCode: 'TIMEOUT',
    });
    const controller = new AbortController();
    const call = manager().execInto(device.serial, 'sleep 5', collecting(), { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(call).rejects.toMatchObject({ data: { cancelled: true } });
  });

  it('starts the local adb server when none is running, as adbkit does', async () => {
    const port = await freePort();
    const fresh = new DeviceManager({ adbPort: port, commandTimeoutMs: 10_000 });
    try {
      // An unknown phone, not an unreachable server: the server was started and answered.
      const failure = await fresh.execInto('emulator-5999', 'getprop', collecting()).catch((e: unknown) => e);
      expect(failure).toMatchObject({ message: expect.stringMatching(/emulator-5999/) });
      expect(JSON.stringify(failure)).not.toMatch(/server-unreachable|No adb server/);
    } finally {
      await fresh.close();
      await killAdbServer(port);
    }
  });
});
