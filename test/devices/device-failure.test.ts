/**
 * Rule (docs/architecture.md#real-components, docs/architecture.md#circuit-breaker): on every family
 * of phones (each virtual phone profile), a device that is unplugged during a call, hangs, or stays
 * away never crashes or hangs a tool — the call ends
 * within its deadline as a structured error with a fix (reconnect the cable, `adb connect`);
 * consecutive failures open the tool's circuit breaker; once the device is back the same tools work
 * again, without restarting anything.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../tools/core';
import { breakerKey, createPipeline } from '../../tools/core/pipeline';
import { deviceTools } from '../../tools/devices';
import { PROFILE_NAMES, connectToAdb, waitForAdbState, type VirtualDevice } from '../../tools/devices/virtual';
import { type DeviceLab, startDeviceLab, textOf } from './device-lab';
import { ManualClock } from '../support/manual-clock';

describe.each(PROFILE_NAMES)('on the %s profile', (profile) => {
  let lab: DeviceLab;
  let device: VirtualDevice;

  beforeAll(async () => {
    lab = await startDeviceLab({ commandTimeoutMs: 3_000, profile });
    device = lab.devices[0]!;
    // These tests are about the cable; a phone's own refusal to install over USB is the matrix's.
    const usbInstall = device.phone.profile.oem.usbInstall;
    if (usbInstall) device.phone.props.set(usbInstall.prop, '1');
  });

  afterAll(async () => {
    await lab?.close();
  });

  /**
   * Calls a tool until it succeeds, as an agent following the reconnect hint would: adb can list the
   * old transport as a device for a moment before it notices a drop and reconnects on its own.
   */
  async function untilOk(toolId: string, args: Record<string, unknown> = {}, withinMs = 20_000) {
    const deadline = Date.now() + withinMs;
    for (;;) {
      await lab.service.manager.tracker.check();
      const result = await lab.call(toolId, args);
      if (result.ok || Date.now() > deadline) return result;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Puts the device back: faults off, adb connect, state `device` in the tracker. */
  async function replug(): Promise<void> {
    device.faults = {};
    await connectToAdb(device);
    await lab.service.manager.tracker.check();
  }

  describe('unplugged during a call', () => {
    it('ends a shell-based tool with a structured error and the reconnect fix', async () => {
      device.faults = { unplugMidCommand: true, refuseConnections: true };
      const result = await lab.call('get_time');
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('EXECUTION_FAILED');
        expect(result.error.message).toMatch(/connection to device .* was lost|is offline/);
        expect(result.error.hint).toContain(`adb connect ${device.serial}`);
      }
      await waitForAdbState(device.serial, 'offline');
    });

    it('fails fast with "offline" while the device stays away', async () => {
      await lab.service.manager.tracker.check();
      const before = device.commandLog.length;
      const result = await lab.call('ui_dump');
      // The environment gate knows the device is offline and refuses before the tool runs.
      expect(!result.ok && result.error).toMatchObject({
        code: 'EXECUTION_FAILED',
        message: `'ui_dump' was not run: device ${device.serial} is offline or disconnected`,
        hint: expect.stringContaining(`adb connect ${device.serial}`),
        data: { gate: 'environment', rule: 'device-offline' },
      });
      expect(device.commandLog.length).toBe(before);
    });

    it('works again after adb connect, without a restart', async () => {
      await replug();
      expect(textOf(await lab.call('shell_execute', { command: 'echo back' }))).toBe('back\n[exit status 0]');
    });

    it('ends a screenshot cut off mid-capture with a structured error', async () => {
      device.faults = { unplugMidCommand: true };
      const result = await lab.call('screenshot');
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('EXECUTION_FAILED');
        expect(result.error.hint).toMatch(/adb connect|reconnect/);
      }
      device.faults = {};
      expect((await untilOk('screenshot', { scale: 0.1 })).ok).toBe(true);
    });

    it('ends an APK upload cut off by an unplug with a structured error, then installs after replugging', async () => {
      writeFileSync(join(lab.workspace, 'big.apk'), `package=com.acme.big\n${'z'.repeat(2_000_000)}`);
      let unplugged = false;
      const result = await lab.call(
        'app_install',
        { path: 'big.apk' },
        {
          onProgress: (p) => {
            if (!unplugged && p.progress > 0 && p.message?.startsWith('uploading')) {
              unplugged = true;
              device.faults = { refuseConnections: true };
              device.unplug();
            }
          },
        },
      );
      expect(unplugged).toBe(true);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('EXECUTION_FAILED');
        expect(result.error.hint).toContain(`adb connect ${device.serial}`);
      }
      await replug();
      expect(textOf(await lab.call('app_install', { path: 'big.apk' }))).toMatch(/installed com\.acme\.big/);
    });

    it('is reconnected by adb on its own when the device comes back, and the tools follow', async () => {
      device.unplug();
      expect((await untilOk('get_device_info')).ok).toBe(true);
    });
  });

  describe('a device that never answers', () => {
    it('ends the call with TIMEOUT at the command deadline and leaves the next call working', async () => {
      device.faults = { hang: true };
      const result = await lab.call('app_list');
      device.faults = {};
      expect(!result.ok && result.error.code).toBe('TIMEOUT');
      expect((await lab.call('app_list')).ok).toBe(true);
    });
  });

  describe('the circuit breaker', () => {
    it('opens after consecutive failures, refuses without touching the device, and closes once the device is back', async () => {
      const clock = new ManualClock();
      const registry = new ToolRegistry();
      registry.registerAll(deviceTools({ service: lab.service, workspaceRoot: lab.workspace }));
      const pipeline = createPipeline(registry, {
        clock,
        approval: false,
        environment: false,
        backoff: { baseMs: 0 },
        breaker: { failureThreshold: 3, cooldownMs: 30_000 },
      });
      const call = () => pipeline.executor.execute({ toolId: 'get_time', args: {} });

      device.faults = { refuseConnections: true };
      device.unplug();
      await waitForAdbState(device.serial, 'offline');
      for (let i = 0; i < 3; i++) {
        const failed = await call();
        expect(!failed.ok && failed.error.code).toBe('EXECUTION_FAILED');
      }
      const dates = () => device.executedCommands.filter((argv) => argv[0] === 'date').length;
      const refused = await call();
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.error.code).toBe('CIRCUIT_OPEN');
        expect(refused.error.message).toMatch(/offline/);
        expect(refused.error.message).not.toContain(device.serial);
      }
      // The breaker belongs to this phone: another phone would still be served.
      expect(pipeline.breakers?.state(breakerKey('get_time', device.serial)).state).toBe('open');

      await replug();
      const before = dates();
      const stillOpen = await call();
      expect(!stillOpen.ok && stillOpen.error.code).toBe('CIRCUIT_OPEN');
      expect(dates()).toBe(before);
      await clock.advanceAsync(30_000);
      const probe = await call();
      expect(probe.ok).toBe(true);
      expect(pipeline.breakers?.state(breakerKey('get_time', device.serial)).state).toBe('closed');
    });
  });
});
