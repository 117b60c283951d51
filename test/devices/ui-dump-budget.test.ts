/**
 * Rule: reading the screen spends its budget on tries that can end within it. Before "ERROR: could
 * not get idle state." a real phone waits up to 10 s for the screen to settle (AOSP DumpCommand:
 * `waitForIdle(1000, 1000 * 10)`; the virtual phone charges its profile's `timing.idleTimeoutMs`
 * times the device's timeScale), so a retry is not started when it could not end in time, and
 * when the budget runs out the phone's own failure is reported with what to do — never a TIMEOUT
 * of a try that was cut short ("did not answer… frozen").
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../tools/core/tool';
import { deviceCall } from '../../tools/devices/tools/device-tool';
import { readUiDump } from '../../tools/devices/tools/ui-dump-reader';
import { connectToAdb, startVirtualDevice, type VirtualDevice } from '../../tools/devices/virtual';
import { type DeviceLab, startDeviceLab, textOf } from './device-lab';
import { refOf } from './profile-lab';

/** 0.6 of a phone's time: uiautomator's idle wait is 6 s, longer than a try's 5 s minimum deadline. */
const TIME_SCALE = 0.6;
const NOTES = 'com.example.notes';

/** A call's handle on the device, as a tool gets it, with a signal nobody aborts. */
function callOn(lab: DeviceLab, serial: string) {
  const ctx: ToolContext = {
    callId: 'ui-dump-budget',
    sessionId: 'test',
    requester: { kind: 'internal' },
    signal: new AbortController().signal,
    progress: () => undefined,
    invoke: () => Promise.reject(new Error('no nested calls here')),
  };
  return deviceCall(lab.service, serial, ctx);
}

/** What readUiDump threw. */
async function failureOf(read: Promise<unknown>) {
  try {
    await read;
  } catch (e) {
    return e as { toolErrorCode: string; message: string; hint?: string; data?: Record<string, unknown> };
  }
  throw new Error('expected the screen read to fail');
}

describe('reading the screen of a phone that takes its real idle wait', () => {
  let lab: DeviceLab;
  let device: VirtualDevice;

  beforeAll(async () => {
    lab = await startDeviceLab({ devices: 0, keyboardSettleMs: 0 });
    device = await startVirtualDevice({ profile: 'pixel', timeScale: TIME_SCALE });
    await connectToAdb(device);
    lab.devices.push(device);
    await lab.service.manager.tracker.check();
  });

  afterAll(async () => {
    await lab?.close();
  });

  afterEach(() => {
    device.faults = {};
    device.phone.conditions.idleStateFailures = 0;
    device.phone.conditions.nullRootFailures = 0;
  });

  it('does not start a retry that could not end within the budget, and reports the idle state', async () => {
    device.phone.conditions.idleStateFailures = 1_000;
    // One try lasts the phone's idle wait (6 s); a second could not end within 8 s.
    const e = await failureOf(readUiDump(callOn(lab, device.serial), { budgetMs: 8_000 }));
    expect(e.toolErrorCode).toBe('EXECUTION_FAILED');
    expect(e.message).toMatch(/it never went idle \("ERROR: could not get idle state\.", 1 attempt\(s\) over/);
    expect(e.data).toMatchObject({ failure: 'idle-state', attempts: 1 });
    expect(e.hint).toContain('keeps animating');
    expect(e.hint).toContain('`settings put global window_animation_scale 0`');
  }, 30_000);

  it('reports what the phone said when a retry outlasts the time left', async () => {
    // A window transition (no active window, answered at once), then an animation: the retry waits
    // the whole idle time, longer than the 4 s budget leaves it.
    let dumps = 0;
    device.faults = {
      beforeCommand: (argv) => {
        if (argv[0] !== 'uiautomator') return;
        dumps++;
        if (dumps === 1) device.phone.conditions.nullRootFailures = 1;
        else device.phone.conditions.idleStateFailures = 1;
      },
    };
    const e = await failureOf(readUiDump(callOn(lab, device.serial), { budgetMs: 4_000 }));
    expect(e.toolErrorCode).toBe('EXECUTION_FAILED');
    expect(e.message).toContain('("ERROR: null root node returned by UiTestAutomationBridge.", 2 attempt(s) over');
    expect(e.message).toContain('the last one cut off by the time left');
    expect(e.data).toMatchObject({ failure: 'null-root', attempts: 2 });
    expect(e.hint).toContain('between windows');
  }, 30_000);

  it("input_text's read-back on a screen that never goes idle says so, not that the phone froze", async () => {
    await lab.call('app_launch', { packageName: NOTES, activity: '.MainActivity' });
    await lab.call('ui_tap', { ref: refOf(textOf(await lab.call('ui_dump')), 'id=note_input') });
    device.phone.conditions.idleStateFailures = 1_000;
    // The check's budget is 15 s: two dumps of 6 s each fit (one, on a machine slow enough that a try
    // takes 7 s), a third could not end in time.
    const text = textOf(await lab.call('input_text', { text: 'hello' }));
    expect(device.phone.fieldText(NOTES, `${NOTES}:id/note_input`)).toBe('hello');
    expect(text).toContain(
      `Not checked: uiautomator could not read the screen of ${device.serial}: it never went idle ` +
        '("ERROR: could not get idle state.", ',
    );
    expect(text).toMatch(/could not get idle state\.", [12] attempt\(s\) over \d+\.\d s\)/);
    expect(text).not.toContain('did not answer');
  }, 60_000);
});
