/**
 * Rule (docs/architecture.md#environment-gate): the device service keeps timestamped telemetry per
 * device (online, screen on, foreground app, keyboard shown), refreshed after UI-changing tools and
 * on demand; the device rules refuse a call only on a fresh known-bad reading — input_text while
 * the keyboard is hidden, touches while the screen is off, any device tool while the device is
 * known offline — each with a fix; missing or stale telemetry lets the call through (fail-open).
 */
import { GEOMETRY_COMMAND } from '../../tools/devices/screen/display-geometry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolResult } from '../../tools/core';
import { createDeviceService, telemetryKey } from '../../tools/devices';
import { connectToAdb, waitForAdbState, type VirtualDevice } from '../../tools/devices/virtual';
import { type DeviceLab, sentCommand, startDeviceLab, textOf } from './device-lab';

let lab: DeviceLab;
let device: VirtualDevice;

/** A call through the lab's pipeline, whose gate has the device rules and reads the telemetry the service writes. */
async function run(toolId: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return lab.call(toolId, args);
}

function refOf(dump: string, needle: string): string {
  return /\b(e\d+)\b/.exec(dump.split('\n').find((l) => l.includes(needle)) ?? '')?.[1] ?? 'e0';
}

beforeAll(async () => {
  lab = await startDeviceLab({ keyboardSettleMs: 0 });
  device = lab.devices[0]!;
});

afterAll(async () => {
  await lab?.close();
});

describe('telemetry', () => {
  it('records screen, foreground and keyboard on demand, with timestamps', async () => {
    await run('app_launch', { packageName: 'com.example.notes' });
    const state = await lab.service.refreshTelemetry();
    expect(state).toMatchObject({
      serial: device.serial,
      screenOn: true,
      foreground: 'com.example.notes/.MainActivity',
      keyboardShown: false,
    });
    const snapshot = lab.service.telemetry.snapshot(device.serial);
    expect(snapshot.online?.value).toBe(true);
    expect(snapshot.foreground?.value).toBe('com.example.notes/.MainActivity');
    expect(snapshot.keyboardShown).toMatchObject({ value: false, ageMs: expect.any(Number) });
    await expect.poll(() => lab.service.devices()[0]?.model).toBe('Pixel 8');
    expect(lab.service.views()).toEqual([
      {
        serial: device.serial,
        state: 'device',
        model: 'Pixel 8',
        telemetry: {
          screenOn: true,
          foreground: 'com.example.notes/.MainActivity',
          keyboardShown: false,
          at: state.at,
        },
      },
    ]);
  });

  it('drops the screen state before a UI action and reads it again after', async () => {
    const dump = textOf(await run('ui_dump'));
    lab.service.telemetry.store.set(telemetryKey(device.serial, 'foreground'), 'stale/.Value');
    await run('ui_tap', { ref: refOf(dump, 'id=all_notes_button') });
    await lab.service.telemetry.pending(device.serial);
    expect(lab.service.telemetry.snapshot(device.serial).foreground?.value).toBe('com.example.notes/.NoteListActivity');
  });
});

describe('keyboard-hidden rule', () => {
  it('refuses input_text while the keyboard is known hidden, with the fix, and types nothing', async () => {
    await run('app_launch', { packageName: 'com.example.notes', activity: '.MainActivity' });
    await lab.service.refreshTelemetry();
    const before = device.commandLog.length;
    const result = await run('input_text', { text: 'lost words' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('EXECUTION_FAILED');
      expect(result.error.message).toMatch(/^'input_text' was not run: no input field .* has the keyboard open/);
      expect(result.error.hint).toMatch(/Open \(tap\) the input field first/);
      expect(result.error.data).toMatchObject({ gate: 'environment', rule: 'keyboard-hidden' });
    }
    expect(device.commandLog.length).toBe(before);
  });

  it('lets input_text through once the field was tapped', async () => {
    await run('ui_tap', { ref: refOf(textOf(await run('ui_dump')), 'id=note_input') });
    await lab.service.telemetry.pending(device.serial);
    expect(lab.service.telemetry.snapshot(device.serial).keyboardShown?.value).toBe(true);
    expect((await run('input_text', { text: 'kept words' })).ok).toBe(true);
    expect(device.phone.fieldText('com.example.notes', 'com.example.notes:id/note_input')).toBe('kept words');
  });

  it('fails open when the reading is stale or missing', async () => {
    const key = telemetryKey(device.serial, 'keyboardShown');
    lab.service.telemetry.store.set(key, false, Date.now() - 60_000);
    expect((await run('input_text', { text: '!' })).ok).toBe(true);
    lab.service.telemetry.store.delete(key);
    expect((await run('input_text', { text: '?' })).ok).toBe(true);
  });

  it('does not trust a keyboard read as hidden right after a UI action (it may still be animating in)', async () => {
    const service = createDeviceService({ adbPort: lab.port, keyboardSettleMs: 60_000 });
    await service.start();
    service.telemetry.invalidate(device.serial);
    device.phone.keyboardShown = false;
    await service.telemetry.refresh(device.serial);
    expect(service.telemetry.snapshot(device.serial).keyboardShown).toBeUndefined();
    await service.close();
  });
});

describe('screen-off rule', () => {
  it('refuses taps and typing while the screen is known off, and allows them once it is on', async () => {
    device.phone.awake = false;
    await lab.service.refreshTelemetry();
    const tap = await run('ui_tap', { x: 10, y: 10 });
    expect(!tap.ok && tap.error.data?.rule).toBe('screen-off');
    expect(!tap.ok && tap.error.hint).toMatch(/KEYCODE_WAKEUP/);
    expect((await run('get_time')).ok).toBe(true);
    device.phone.awake = true;
    await lab.service.refreshTelemetry();
    expect((await run('ui_tap', { x: 10, y: 10 })).ok).toBe(true);
  });
});

describe('device-offline rule', () => {
  it('refuses every device tool while the device is known offline, with the reconnect fix', async () => {
    device.faults = { refuseConnections: true };
    device.unplug();
    await waitForAdbState(device.serial, 'offline');
    await lab.service.manager.tracker.check();
    for (const toolId of ['get_time', 'screenshot', 'app_list']) {
      const result = await run(toolId);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        // A person's step, as the tool answers adb's own "device offline": UNSUPPORTED, not retried.
        expect(result.error.code).toBe('UNSUPPORTED');
        expect(result.error.data).toMatchObject({ gate: 'environment', rule: 'device-offline', step: 'reconnect' });
        expect(result.error.hint).toContain(`adb connect ${device.serial}`);
      }
    }
    device.faults = {};
    await connectToAdb(device);
    await lab.service.manager.tracker.check();
    expect((await run('get_time')).ok).toBe(true);
  });

  it('checks the device a call names, not another one', async () => {
    lab.service.telemetry.store.set(telemetryKey('other:5555', 'online'), false);
    const result = await run('get_time', { serial: device.serial });
    expect(result.ok).toBe(true);
    const other = await run('get_time', { serial: 'other:5555' });
    expect(!other.ok && other.error.data?.rule).toBe('device-offline');
  });
});

describe('the screen state read after the action', () => {
  it(
    'answers a tap first and then reads the state with a command of its own, which the next ' + 'gate waits for',
    async () => {
      await run('app_launch', { packageName: 'com.example.notes' });
      let dump = textOf(await run('ui_dump'));
      // The editor, or the saved notes' list whose "New note" opens the editor.
      if (dump.includes('id=save_button')) await run('ui_tap', { ref: refOf(dump, 'id=all_notes_button') });
      dump = textOf(await run('ui_dump'));
      const [, x, y] = /@(\d+),(\d+)/.exec(dump.split('\n').find((l) => l.includes('id=new_note_button')) ?? '') ?? [];
      await lab.service.telemetry.pending(device.serial);
      const from = device.commandLog.length;
      const tapped = await run('ui_tap', { x: Number(x), y: Number(y) });
      expect(textOf(tapped)).toBe(`Tapped (${x},${y}) on ${device.serial}.`);
      // Answered with the tap alone: the state before it is dropped, its read is under way.
      expect(sentCommand(device.commandLog[from]!)).toBe(`input tap ${x} ${y}`);
      expect(lab.service.telemetry.snapshot(device.serial).foreground).toBeUndefined();
      const reading = lab.service.telemetry.pending(device.serial);
      expect(reading).toBeDefined();
      await reading;
      expect(device.commandLog.slice(from)).toHaveLength(2);
      expect(sentCommand(device.commandLog[from + 1]!)).toMatch(/^dumpsys power/);
      expect(lab.service.telemetry.snapshot(device.serial)).toMatchObject({
        foreground: { value: 'com.example.notes/.MainActivity' },
        screenOn: { value: true },
        locked: { value: false },
      });
    },
  );

  it('checks a tap by coordinates against the display size the read after the last action found', async () => {
    await run('ui_tap', { x: 10, y: 10 });
    await lab.service.telemetry.pending(device.serial);
    const from = device.commandLog.length;
    expect((await run('ui_tap', { x: 20, y: 20 })).ok).toBe(true);
    // The tap alone, then the next read: no `wm size` of its own.
    expect(sentCommand(device.commandLog[from]!)).toBe('input tap 20 20');
    const outside = await run('ui_tap', { x: 5_000, y: 20 });
    expect(!outside.ok && outside.error.code).toBe('INVALID_ARGUMENT');
  });

  it('asks the phone for the size when no read followed the last action', async () => {
    await run('ui_tap', { x: 10, y: 10 });
    await lab.service.telemetry.pending(device.serial);
    // A UI action whose read has not come: the size read before it no longer counts.
    lab.service.telemetry.invalidate(device.serial);
    const from = device.commandLog.length;
    expect((await run('ui_tap', { x: 30, y: 30 })).ok).toBe(true);
    // The size and the rotation that turns it (display-geometry.ts), then the tap.
    expect(device.commandLog.slice(from).map(sentCommand).slice(0, 2)).toEqual([GEOMETRY_COMMAND, 'input tap 30 30']);
  });

  it('decides the next call on the read after the last action, never on the state from before it', async () => {
    const dump = textOf(await run('ui_dump'));
    await lab.service.telemetry.pending(device.serial);
    await run('ui_tap', { ref: refOf(dump, 'id=note_input') });
    // Before the read after the tap lands, the screen is said to be off: the read must overrule it.
    lab.service.telemetry.store.set(telemetryKey(device.serial, 'screenOn'), false);
    expect(lab.service.telemetry.pending(device.serial)).toBeDefined();
    const typed = await run('input_text', { text: 'tea', verify: false });
    expect(typed.ok).toBe(true);
  });

  it('types and checks that the text arrived in one shell line, and keeps the check', async () => {
    const dump = textOf(await run('ui_dump'));
    await run('ui_tap', { ref: refOf(dump, 'id=note_input') });
    await lab.service.telemetry.pending(device.serial);
    const from = device.commandLog.length;
    const typed = await run('input_text', { text: 'milk' });
    expect(textOf(typed)).toMatch(/^Typed 4 character\(s\) on .*\. Checked: the text is in the focused field\.$/);
    await lab.service.telemetry.pending(device.serial);
    const sent = device.commandLog.slice(from);
    expect(sent).toHaveLength(2);
    // The check reads the tree alone: neither the display size nor the keyguard is needed for it.
    expect(sentCommand(sent[0]!)).toMatch(
      /^input text 'milk'\necho __toolgate_before_[0-9a-f]+=\$\?\nuiautomator dump \/dev\/tty$/,
    );
    expect(sentCommand(sent[1]!)).toMatch(/^dumpsys power/);
    expect(lab.service.telemetry.snapshot(device.serial).foreground?.value).toBe('com.example.notes/.MainActivity');
  });

  it('does not record a read that a newer action overtook: it shows the screen from before that action', async () => {
    await lab.service.telemetry.pending(device.serial);
    const telemetry = lab.service.telemetry;
    telemetry.refreshSoon(device.serial, 5_000);
    telemetry.invalidate(device.serial);
    await telemetry.pending(device.serial);
    expect(telemetry.snapshot(device.serial)).toMatchObject({ foreground: undefined, screenOn: undefined });
  });

  it(
    'answers for a tap whose state read never finishes (a dumpsys stuck in system_server), ' +
      'and leaves the readings unknown',
    async () => {
      await run('app_launch', { packageName: 'com.example.notes' });
      const dump = textOf(await run('ui_dump'));
      const [, x, y] = /@(\d+),(\d+)/.exec(dump.split('\n').find((l) => l.includes('id=note_input')) ?? '') ?? [];
      await lab.service.telemetry.pending(device.serial);
      device.faults = { hangCommands: ['dumpsys'] };
      try {
        const tapped = await run('ui_tap', { x: Number(x), y: Number(y) });
        expect(textOf(tapped)).toBe(`Tapped (${x},${y}) on ${device.serial}.`);
        // The read that hangs ends at its limit; the gate has no readings then and lets calls through.
        await lab.service.telemetry.pending(device.serial);
      } finally {
        device.faults = {};
      }
      expect(lab.service.telemetry.snapshot(device.serial)).toMatchObject({
        foreground: undefined,
        screenOn: undefined,
      });
      const after = textOf(await run('ui_dump'));
      expect(after.split('\n').find((l) => l.includes('id=note_input'))).toContain('focused');
    },
  );
});
