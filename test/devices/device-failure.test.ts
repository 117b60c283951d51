/**
 * Rule (docs/architecture.md#real-components, docs/architecture.md#circuit-breaker): on every family
 * of phones (each virtual phone profile), a device that is unplugged during a call, hangs, or stays
 * away never crashes or hangs a tool — the call ends
 * within its deadline as a structured error with a fix (reconnect the cable, `adb connect`);
 * consecutive failures open the tool's circuit breaker, but a phone adb lists as offline is a
 * person's step (UNSUPPORTED, naming it), which the breaker does not count; once the device is back
 * the same tools work again, without restarting anything.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../tools/core';
import { RUN_POLICIES, breakerKey, createPipeline } from '../../tools/core/pipeline';
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
        // Cut during the command (transient), or already offline when it was to start (a person's step).
        const lost = /connection to device .* was lost/.test(result.error.message);
        expect(result.error.code).toBe(lost ? 'EXECUTION_FAILED' : 'UNSUPPORTED');
        if (!lost) expect(result.error.message).toBe(`Device ${device.serial} is offline.`);
        expect(result.error.hint).toContain(`adb connect ${device.serial}`);
      }
      await waitForAdbState(device.serial, 'offline');
    });

    it('fails fast with "offline" while the device is away: UNSUPPORTED, naming the step to take', async () => {
      await lab.service.manager.tracker.check();
      const before = device.commandLog.length;
      const result = await lab.call('ui_dump');
      // The environment gate knows the device is offline and refuses before the tool runs, with the
      // code and step the tool gives adb's own "device offline".
      expect(!result.ok && result.error).toMatchObject({
        code: 'UNSUPPORTED',
        message: `'ui_dump' was not run: device ${device.serial} is offline or disconnected`,
        hint: expect.stringContaining(`adb connect ${device.serial}`),
        data: { gate: 'environment', rule: 'device-offline', state: 'offline', step: 'reconnect' },
      });
      expect(device.commandLog.length).toBe(before);
      // A command sent anyway gets the adb server's own "device offline", read as the same refusal.
      const sent = await lab.service.manager.shell(device.serial, 'echo hi').catch((e: unknown) => e);
      expect(sent).toMatchObject({ toolErrorCode: 'UNSUPPORTED', data: { state: 'offline' } });
    });

    it('works again after adb connect, without a restart', async () => {
      await replug();
      expect(textOf(await lab.call('shell_execute', { command: 'echo back' }))).toBe('back\n[exit status 0]');
    });

    it('ends a screenshot cut off mid-capture with a structured error', async () => {
      device.faults = { unplugMidCommand: true };
      const result = await lab.call('screenshot');
      device.faults = {};
      expect(result.ok).toBe(false);
      if (!result.ok) {
        // The cut capture fails the attempt; a screenshot is read-only, so the pipeline tries once
        // more, and that attempt may already meet adb's "device offline" (a person's step). Either
        // way the model is told to reconnect.
        expect(['EXECUTION_FAILED', 'UNSUPPORTED']).toContain(result.error.code);
        expect(result.error.hint).toMatch(/adb connect|reconnect/);
      }
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
    /** get_time through a pipeline of its own: manual clock, no retries, a breaker that opens after 3 failures. */
    function breakerPipeline() {
      const clock = new ManualClock();
      const registry = new ToolRegistry();
      registry.registerAll(deviceTools({ service: lab.service, workspaceRoot: lab.workspace }));
      const pipeline = createPipeline(registry, {
        clock,
        approval: false,
        environment: false,
        policies: { quickRead: { ...RUN_POLICIES.quickRead, maxRetries: 0 } },
        breaker: { failureThreshold: 3, cooldownMs: 30_000 },
      });
      const call = () => pipeline.executor.execute({ toolId: 'get_time', args: {} });
      const state = () => pipeline.breakers?.state(breakerKey('get_time', device.serial)).state;
      return { clock, call, state };
    }
    const dates = () => device.executedCommands.filter((argv) => argv[0] === 'date').length;

    it('opens after consecutive phone failures, refuses without touching it, closes when it answers', async () => {
      const { clock, call, state } = breakerPipeline();
      for (let i = 0; i < 3; i++) {
        // adbd refuses the command's stream (as while it restarts): the tool failed, the phone may recover.
        device.faults = { failNextOpen: 'adbd restarting' };
        const failed = await call();
        expect(!failed.ok && failed.error.code).toBe('EXECUTION_FAILED');
      }
      device.faults = {};
      const before = dates();
      const refused = await call();
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.error.code).toBe('CIRCUIT_OPEN');
        expect(refused.error.message).toMatch(/device-refused/);
        expect(refused.error.message).not.toContain(device.serial);
      }
      expect(dates()).toBe(before);
      // The breaker belongs to this phone: another phone would still be served.
      expect(state()).toBe('open');
      await clock.advanceAsync(30_000);
      const probe = await call();
      expect(probe.ok).toBe(true);
      expect(state()).toBe('closed');
    });

    it('does not count an offline phone: each call names the step to bring it back, served at once after', async () => {
      const { call, state } = breakerPipeline();
      device.faults = { refuseConnections: true };
      device.unplug();
      await waitForAdbState(device.serial, 'offline');
      await lab.service.manager.tracker.check();
      for (let i = 0; i < 5; i++) {
        const failed = await call();
        expect(failed.ok).toBe(false);
        if (!failed.ok) {
          expect(failed.error.code).toBe('UNSUPPORTED');
          expect(failed.error.hint).toContain(`adb connect ${device.serial}`);
        }
      }
      expect(state()).toBe('closed');
      await replug();
      const before = dates();
      expect((await call()).ok).toBe(true);
      expect(dates()).toBeGreaterThan(before);
    });
  });
});
