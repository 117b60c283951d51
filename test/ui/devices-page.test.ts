/**
 * Rule: the Devices page lets a person see and drive a phone exactly as an agent would. A click
 * inside the scaled screen taps that device pixel (a click on the bars beside it does nothing), a
 * drag swipes for as long as it lasted, keys tap the centre or swipe; every tap and swipe goes
 * through the pipeline as ui_tap / ui_swipe (traced, limited, with its outcome shown, refusals
 * with code and hint); the screen is live (frames drawn, rate counted over the last second); the
 * list shows each device's state and telemetry; logcat refreshes after each action.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceView } from '../../shared/contract';
import { VirtualPhone } from '../../tools/devices/virtual/phone';
import { deviceStateMeaning } from '../../renderer/src/pages/devices/device-states';
import { filterLines, logLevel } from '../../renderer/src/pages/devices/logcat-lines';
import { pickDevice } from '../../renderer/src/pages/devices/pick-device';
import {
  classifyGesture,
  containedRect,
  keyGesture,
  toDevicePoint,
} from '../../renderer/src/pages/devices/screen-gesture';
import { FpsWindow } from '../../renderer/src/state/fps-window';
import { closedPortUrl } from './support/closed-port';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness } from './support/ui-harness';

const PHONE = { width: 720, height: 1280 };
/** A 400×800 box: the phone picture is 400×711, with bars of ~44 px above and below. */
const BOX = { left: 100, top: 50, width: 400, height: 800 };

describe('what a pointer on the live screen means on the device', () => {
  it('maps a click on the bars beside the picture to nothing', () => {
    expect(toDevicePoint({ x: 300, y: 60 }, BOX, PHONE)).toBeUndefined();
    expect(toDevicePoint({ x: 300, y: 845 }, BOX, PHONE)).toBeUndefined();
    expect(
      classifyGesture({ client: { x: 300, y: 60 }, at: 0 }, { client: { x: 300, y: 60 }, at: 50 }, BOX, PHONE),
    ).toBeUndefined();
  });

  it('maps the picture corners and centre to device pixels, keeping the aspect', () => {
    const picture = containedRect(BOX, PHONE);
    expect(picture.width / picture.height).toBeCloseTo(720 / 1280, 6);
    expect(toDevicePoint({ x: picture.left, y: picture.top }, BOX, PHONE)).toEqual({ x: 0, y: 0 });
    expect(toDevicePoint({ x: picture.left + picture.width, y: picture.top + picture.height }, BOX, PHONE)).toEqual({
      x: 719,
      y: 1279,
    });
    expect(
      toDevicePoint({ x: picture.left + picture.width / 2, y: picture.top + picture.height / 2 }, BOX, PHONE),
    ).toEqual({ x: 360, y: 640 });
  });

  it('treats a press that moves less than the threshold as a tap where it began', () => {
    const picture = containedRect(BOX, PHONE);
    const at = { x: picture.left + picture.width / 4, y: picture.top + picture.height / 4 };
    const gesture = classifyGesture(
      { client: at, at: 10 },
      { client: { x: at.x + 3, y: at.y + 4 }, at: 900 },
      BOX,
      PHONE,
    );
    expect(gesture).toEqual({ kind: 'tap', x: 180, y: 320 });
  });

  it('turns a drag into a swipe lasting as long as the drag, pulled back to the edge when it ends outside', () => {
    const picture = containedRect(BOX, PHONE);
    const start = { x: picture.left + picture.width / 2, y: picture.top + picture.height * (960.5 / 1280) };
    const gesture = classifyGesture(
      { client: start, at: 1_000 },
      { client: { x: start.x, y: 0 }, at: 1_420.4 },
      BOX,
      PHONE,
    );
    expect(gesture).toEqual({ kind: 'swipe', x1: 360, y1: 960, x2: 360, y2: 0, durationMs: 420 });
    const slow = classifyGesture(
      { client: start, at: 0 },
      { client: { x: start.x + 50, y: start.y }, at: 60_000 },
      BOX,
      PHONE,
    );
    expect(slow).toMatchObject({ kind: 'swipe', durationMs: 10_000 });
  });

  it('taps the centre on Enter or Space, swipes in the arrow direction, ignores other keys', () => {
    expect(keyGesture('Tab', PHONE)).toBeUndefined();
    expect(keyGesture('Enter', PHONE)).toEqual({ kind: 'tap', x: 360, y: 640 });
    expect(keyGesture(' ', PHONE)).toEqual({ kind: 'tap', x: 360, y: 640 });
    const up = keyGesture('ArrowUp', PHONE);
    expect(up?.kind === 'swipe' && up.y2 < up.y1 && up.x1 === up.x2).toBe(true);
    const left = keyGesture('ArrowLeft', PHONE);
    expect(left?.kind === 'swipe' && left.x2 < left.x1 && left.y1 === left.y2).toBe(true);
  });
});

describe('the frame rate', () => {
  it('counts only the frames of the last second', () => {
    const fps = new FpsWindow();
    expect(fps.rate(0)).toBe(0);
    for (let i = 0; i < 20; i++) fps.record(1_000 + i * 50);
    expect(fps.rate(1_950)).toBe(20);
    expect(fps.rate(2_500)).toBe(9);
    expect(fps.rate(5_000)).toBe(0);
  });
});

describe('device list and logcat helpers', () => {
  const device = (serial: string, state: string): DeviceView => ({ serial, state, telemetry: {} });

  it('shows no device when the route names one that is not attached, else the first usable one', () => {
    const list = [device('a', 'unauthorized'), device('b', 'device')];
    expect(pickDevice(list, 'gone')).toBeUndefined();
    expect(pickDevice(list, 'a')?.serial).toBe('a');
    expect(pickDevice(list, undefined)?.serial).toBe('b');
    expect(pickDevice([device('a', 'offline')], undefined)?.serial).toBe('a');
  });

  it('says how to fix an unauthorized or offline device and has nothing to say about an online one', () => {
    expect(deviceStateMeaning('unauthorized').advice).toMatch(/Allow USB debugging/);
    expect(deviceStateMeaning('offline').advice).toMatch(/adb reconnect/);
    expect(deviceStateMeaning('device').advice).toBeUndefined();
  });

  it('reads the priority of threadtime, time and brief lines, and filters ignoring case', () => {
    expect(logLevel('01-02 12:00:00.123  1234  1240 E AndroidRuntime: FATAL')).toBe('E');
    expect(logLevel('01-02 12:00:00.123 W/Tag( 123): careful')).toBe('W');
    expect(logLevel('I/ActivityManager( 612): Start proc')).toBe('I');
    expect(logLevel('--------- beginning of main')).toBeUndefined();
    expect(filterLines(['a Notes b', 'other'], 'notes')).toEqual(['a Notes b']);
  });
});

/** The centre of a node's bounds in a uiautomator dump, found by an attribute. */
function centreOf(xml: string, attribute: string): { x: number; y: number } {
  const node = new RegExp(`<node [^>]*${attribute}[^>]*bounds="\\[(\\d+),(\\d+)\\]\\[(\\d+),(\\d+)\\]"`).exec(xml);
  if (!node) throw new Error(`no node with ${attribute}`);
  const [l, t, r, b] = node.slice(1).map(Number) as [number, number, number, number];
  return { x: Math.round((l + r) / 2), y: Math.round((t + b) / 2) };
}

describe('Devices page against the host with the virtual phone', () => {
  let h: UiHarness;
  let serial: string;
  let adbPort: number;
  // Where things are on the phone's home screen and in Notes: the virtual phone's own layout.
  const layout = new VirtualPhone({ serial: 'layout' });
  const SCREEN = layout.screen;
  const notesIcon = centreOf(layout.hierarchyXml(), 'content-desc="Notes"');
  layout.launchApp('com.example.notes');
  const noteInput = centreOf(layout.hierarchyXml(), 'resource-id="com.example.notes:id/note_input"');

  const outcome = () => h.page.getByTestId('gesture-outcome');
  const selectedItem = () => h.page.locator('[data-testid="device-item"][aria-current="true"]');

  /** Clicks (or drags between) device pixels on the live screen, wherever the page scaled it. */
  async function screenPoint(p: { x: number; y: number }): Promise<{ x: number; y: number }> {
    const box = await h.page.getByTestId('device-screen').boundingBox();
    if (!box) throw new Error('the live screen is not shown');
    const picture = containedRect({ left: box.x, top: box.y, width: box.width, height: box.height }, SCREEN);
    return {
      x: picture.left + ((p.x + 0.5) / SCREEN.width) * picture.width,
      y: picture.top + ((p.y + 0.5) / SCREEN.height) * picture.height,
    };
  }

  async function uiSpans(toolId: string) {
    return (await h.host.api.listSpans({ toolId, limit: 50 })).filter((s) => s.requesterKind === 'ui');
  }

  beforeAll(async () => {
    // Its own adb server, so the page lists this host's virtual phone and no other test's.
    adbPort = Number(new URL(await closedPortUrl()).port);
    // One swipe a minute: the second drag shows how the page reports a refusal.
    h = await startUiHarness({ virtualDevice: true, adbPort, rateLimitPerMinute: { ui_swipe: 1 } });
    const devices = await eventually(
      async () => {
        const list = await h.host.api.devices({});
        const online = list.filter((d) => d.state === 'device');
        if (online.length === 0)
          throw new Error(
            `a host started with virtualDevice: true lists no online device (${JSON.stringify(list)}); is the ` +
              'device family wired into tools/host/families.ts, and is adb installed?',
          );
        return online;
      },
      45_000,
      500,
    );
    serial = devices[0]!.serial;
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    if (adbPort)
      await new Promise((r) => execFile('adb', ['-P', String(adbPort), 'kill-server'], { timeout: 10_000 }, r));
  });

  it('says so when the route names a device that is not attached', async () => {
    await h.open('devices/no-such-serial');
    await h.page.getByText('no-such-serial is not attached.').waitFor();
  });

  it('lists the virtual device as online, its telemetry unknown until a UI action reads it', async () => {
    await h.open('devices');
    const item = selectedItem();
    await item.waitFor();
    const text = (await item.textContent()) ?? '';
    expect(text).toContain(serial);
    expect(text).toContain('online');
    expect(text).toMatch(/Screen\s*(unknown|on)Foreground\s*(unknown|com\.android\.launcher3)/);
  });

  it('draws live frames from the device and measures a frame rate above zero', async () => {
    const status = h.page.getByTestId('device-fps');
    const fps = await eventually(
      async () => {
        const text = (await status.textContent()) ?? '';
        const rate = Number(/([\d.]+) fps/.exec(text)?.[1] ?? 0);
        expect(rate).toBeGreaterThan(0);
        return rate;
      },
      20_000,
      250,
    );
    expect(await status.textContent()).toContain(`${SCREEN.width}×${SCREEN.height}`);
    expect(fps).toBeGreaterThan(0);
  });

  it('taps the Notes icon through the pipeline: the outcome shows, the app opens, logcat refreshes', async () => {
    const at = await screenPoint(notesIcon);
    await h.page.mouse.click(at.x, at.y);
    await eventually(async () =>
      expect(await outcome().textContent()).toContain(`Tap at (${notesIcon.x}, ${notesIcon.y})`),
    );
    await eventually(
      async () => expect(await outcome().getByTestId('call-outcome').textContent()).toContain('Success'),
      20_000,
    );
    await eventually(
      async () => expect(await selectedItem().textContent()).toMatch(/Screen\s*onForeground\s*com\.example\.notes/),
      20_000,
    );
    await eventually(
      async () => expect(await h.page.getByTestId('logcat').innerText()).toContain('com.example.notes'),
      15_000,
    );
    const taps = await uiSpans('ui_tap');
    expect(taps).toHaveLength(1);
    expect(taps[0]?.outcome).toBe('success');
  });

  it('taps the note field: the keyboard comes up', async () => {
    const at = await screenPoint(noteInput);
    await h.page.mouse.click(at.x, at.y);
    await eventually(async () =>
      expect(await outcome().textContent()).toContain(`Tap at (${noteInput.x}, ${noteInput.y})`),
    );
    await eventually(async () => expect(await selectedItem().textContent()).toMatch(/Keyboard\s*shown/), 20_000);
    await h.shot('devices');
  });

  it('turns a drag into a swipe through the pipeline', async () => {
    const from = await screenPoint({ x: 360, y: 1000 });
    const to = await screenPoint({ x: 360, y: 500 });
    await h.page.mouse.move(from.x, from.y);
    await h.page.mouse.down();
    await h.page.mouse.move(to.x, to.y, { steps: 5 });
    await h.page.mouse.up();
    await eventually(async () =>
      expect(await outcome().textContent()).toMatch(/Swipe \(360, 1000\) → \(360, 500\) in \d+ ms/),
    );
    await eventually(
      async () => expect(await outcome().getByTestId('call-outcome').textContent()).toContain('Success'),
      20_000,
    );
    expect(await uiSpans('ui_swipe')).toHaveLength(1);
  });

  it('shows a refused swipe with its code and the hint the model would get', async () => {
    const screen = h.page.getByTestId('device-screen');
    await screen.focus();
    await h.page.keyboard.press('ArrowUp');
    const result = outcome().getByTestId('call-outcome');
    await eventually(async () => expect(await result.textContent()).toContain('RATE_LIMITED'), 20_000);
    expect(await result.locator('.hint').textContent()).toMatch(/Hint: \S+/);
  });

  it('taps the centre when Enter is pressed on the focused screen', async () => {
    await h.page.getByTestId('device-screen').focus();
    await h.page.keyboard.press('Enter');
    await eventually(async () =>
      expect(await outcome().textContent()).toContain(`Tap at (${SCREEN.width / 2}, ${SCREEN.height / 2})`),
    );
    await eventually(async () => expect(await uiSpans('ui_tap')).toHaveLength(3), 20_000);
  });

  it('lists the taps made on the screen on the Traces page, like an agent call', async () => {
    await h.open('traces');
    await eventually(async () =>
      expect(
        (await h.page.locator('.span-row-holder').allTextContents()).filter((t) => t.includes('ui_tap')),
      ).toHaveLength(3),
    );
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
