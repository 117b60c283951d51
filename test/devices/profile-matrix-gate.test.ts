/**
 * Rule (issue 16): the environment gate's telemetry reads each family's own words — the resumed
 * activity as `topResumedActivity=` (Android 12+) or `mResumedActivity:` (Android 8–9), the keyguard
 * from the window policy, a hardware keyboard from the input devices — and the device layer knows
 * one phone reached two ways (wireless debugging's mDNS name and its IP:PORT) as one phone, and an
 * unauthorized phone as a person's step to take.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakerKey } from '../../tools/core/pipeline';
import { groupByPhone, mdnsSerialNumber } from '../../tools/devices/manager/phone-identity';
import {
  PROFILE_NAMES,
  connectToAdb,
  disconnectFromAdb,
  runAdb,
  startVirtualDevice,
  waitForAdbState,
} from '../../tools/devices/virtual';
import { textOf } from './device-lab';
import { type ProfileLab, errorOf, startProfileLab } from './profile-lab';

describe.each(PROFILE_NAMES)('telemetry on the %s profile', (profile) => {
  let p: ProfileLab;

  beforeAll(async () => {
    p = await startProfileLab(profile);
  });

  afterAll(async () => {
    await p?.close();
  });

  it('reads the foreground app from the resumed-activity line this Android prints', async () => {
    await p.run('app_launch', { packageName: 'com.example.notes' });
    const lines = textOf(
      await p.run('shell_execute', {
        command: "dumpsys activity activities | grep -E 'topResumedActivity=|mResumedActivity:'",
      }),
    );
    expect(lines).toContain(
      p.device.phone.profile.android.resumedLine === 'top' ? 'topResumedActivity=' : 'mResumedActivity:',
    );
    expect(lines).not.toContain(
      p.device.phone.profile.android.resumedLine === 'top' ? 'mResumedActivity:' : 'topResumedActivity=',
    );
    expect(await p.lab.service.refreshTelemetry(p.device.serial)).toMatchObject({
      foreground: 'com.example.notes/.MainActivity',
      locked: false,
      hardwareKeyboard: false,
    });
  });

  it('knows the keyguard and a hardware keyboard', async () => {
    p.device.phone.conditions.locked = true;
    p.device.phone.conditions.hardwareKeyboard = true;
    const state = await p.lab.service.refreshTelemetry(p.device.serial);
    p.device.phone.conditions.locked = false;
    p.device.phone.conditions.hardwareKeyboard = false;
    expect(state).toMatchObject({ locked: true, hardwareKeyboard: true, foreground: undefined });
  });
});

describe('one phone reached two ways', () => {
  let p: ProfileLab;
  let alias: string;

  beforeAll(async () => {
    p = await startProfileLab('pixel');
    alias = `localhost:${p.device.port}`;
    expect(await runAdb(['connect', alias])).toContain(`connected to ${alias}`);
    await waitForAdbState(alias, 'device');
    await p.lab.service.manager.tracker.check();
  });

  afterAll(async () => {
    await disconnectFromAdb(alias);
    await p?.close();
  });

  it('recognises an mDNS serial by the serial number in it', () => {
    expect(mdnsSerialNumber('adb-3A0F0C12A2E-vWyqUA._adb-tls-connect._tcp')).toBe('3A0F0C12A2E');
    expect(mdnsSerialNumber('adb-R58T0C12A2E-AbCdEf._adb._tcp.')).toBe('R58T0C12A2E');
    expect(mdnsSerialNumber('192.168.1.20:41235')).toBeUndefined();
    const phones = groupByPhone(
      [
        { serial: 'adb-3A0F0C12A2E-vWyqUA._adb-tls-connect._tcp', state: 'device' },
        { serial: '192.168.1.20:41235', state: 'device' },
      ],
      (serial) => (serial === '192.168.1.20:41235' ? '3A0F0C12A2E' : undefined),
    );
    expect(phones).toEqual([
      {
        id: '3A0F0C12A2E',
        transports: [
          { serial: '192.168.1.20:41235', state: 'device' },
          { serial: 'adb-3A0F0C12A2E-vWyqUA._adb-tls-connect._tcp', state: 'device' },
        ],
      },
    ]);
  });

  it('serves a call without a serial instead of refusing "2 devices attached"', async () => {
    expect(
      p.lab.service
        .devices()
        .map((d) => d.serial)
        .sort(),
    ).toEqual([p.device.serial, alias].sort());
    const result = await p.run('get_device_info');
    expect(result.ok).toBe(true);
    expect(p.lab.service.soleSerial()).toBeDefined();
  });

  it('still asks which one when a second phone is attached, listing each phone once with its transports', async () => {
    const other = await p.lab.addDevice('samsung');
    try {
      const e = errorOf(await p.lab.call('get_time'));
      expect(e.code).toBe('INVALID_ARGUMENT');
      expect(e.message).toMatch(/^2 devices are attached; pass `serial` to choose one: /);
      expect(e.message).toContain(alias);
      expect(e.message).toContain(other.serial);
    } finally {
      await p.lab.removeDevice(other);
    }
  });

  it('says an unauthorized phone waits for a person to accept the USB debugging prompt (DENIED)', async () => {
    const locked = await startVirtualDevice();
    locked.faults.unauthorized = true;
    try {
      await expect(connectToAdb(locked)).rejects.toThrow(/failed to authenticate/);
      await waitForAdbState(locked.serial, 'unauthorized');
      await p.lab.service.manager.tracker.check();
      const e = errorOf(await p.run('get_time', { serial: locked.serial }));
      expect(e.code).toBe('PERMISSION_DENIED');
      expect(e.hint).toContain(
        "accept the 'Allow USB debugging?' prompt, which shows this computer's RSA key fingerprint",
      );
      expect(e.data).toMatchObject({ state: 'unauthorized', step: 'allow-usb-debugging' });
      // Not the tool failing: the phone's breaker stays closed however often it is asked.
      for (let i = 0; i < 6; i++) await p.run('get_time', { serial: locked.serial });
      expect(p.pipeline.breakers?.state(breakerKey('get_time', locked.serial)).state).toBe('closed');
      // A command sent anyway gets the adb server's own words ("device unauthorized.\nThis adb
      // server's $ADB_VENDOR_KEYS is not set…"), read as the same refusal.
      const sent = await p.lab.service.manager.shell(locked.serial, 'echo hi').catch((err: unknown) => err);
      expect(sent).toMatchObject({ toolErrorCode: 'PERMISSION_DENIED', data: { state: 'unauthorized' } });
    } finally {
      locked.faults = {};
      await disconnectFromAdb(locked);
      await locked.close();
    }
  });
});
