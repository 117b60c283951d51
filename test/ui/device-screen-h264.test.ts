/**
 * Rule: in real Chromium the Devices page shows the phone as the phone's own H.264, decoded by the
 * page (WebCodecs), and says so: frames are painted and the phone's frame counter, read back from
 * the canvas, advances; it goes on across screenrecord's restarts with no counter value missing
 * beyond the restart's few frames; a tap on the video lands on the device pixel under the pointer;
 * where screenrecord is missing the page shows screenshots and says why; two pages watching one
 * phone share one screenrecord, which stops when both stop watching.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { connectToAdb, recorderSettings, startVirtualDevice, type VirtualDevice } from '../../tools/devices/virtual';
import { compositorOf } from '../../tools/devices/virtual/display/compositor';
import { VirtualPhone } from '../../tools/devices/virtual/phone';
import { containedRect } from '../../renderer/src/pages/devices/screen-gesture';
import { missingCounters } from '../support/probe-decoder';
import { freePort, killAdbServer } from '../support/private-adb';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness } from './support/ui-harness';

// The default profile's display (pixel: 1080×2400).
const PHONE = new VirtualPhone({ serial: 'size' }).screen;
const TIME_LIMIT_S = 4;

let h: UiHarness;
let device: VirtualDevice;
let adbPort: number;

interface Probe {
  counter: number;
  latencyMs: number;
  mode: string;
}

/** Starts recording the probe readings the page announces on its canvas. */
async function recordProbes(page: Page): Promise<void> {
  await page.getByTestId('device-screen').waitFor();
  await page.evaluate(() => {
    const w = window as unknown as { probes: Probe[] };
    w.probes = [];
    document
      .querySelector('[data-testid="device-screen"]')
      ?.addEventListener('toolgate-screen-probe', (e) => w.probes.push((e as CustomEvent<Probe>).detail));
  });
}

const probes = (page: Page): Promise<Probe[]> => page.evaluate(() => (window as unknown as { probes: Probe[] }).probes);

const modeText = (page: Page) => page.getByTestId('screen-mode').textContent();
const screenrecords = () => device.commandLog.filter((l) => l.startsWith('screenrecord ')).length;

beforeAll(async () => {
  adbPort = await freePort();
  h = await startUiHarness({ adbPort, screens: { timeLimitS: TIME_LIMIT_S } });
  device = await startVirtualDevice();
  process.env.ANDROID_ADB_SERVER_PORT = String(adbPort);
  await connectToAdb(device);
  await eventually(
    async () => expect((await h.host.api.devices({})).map((d) => d.state)).toContain('device'),
    45_000,
    300,
  );
}, 120_000);
afterAll(async () => {
  await h?.close();
  await device?.close();
  if (adbPort) await killAdbServer(adbPort);
});

describe('the Devices page showing the phone’s H.264', () => {
  it('decodes and paints it, says it is H.264 from the phone’s encoder, and the phone’s counter advances', async () => {
    await h.open('devices');
    await recordProbes(h.page);
    await eventually(async () => expect(await modeText(h.page)).toContain('H.264 video'), 30_000, 250);
    expect(await modeText(h.page)).toContain('screenrecord');
    await eventually(async () => expect((await probes(h.page)).length).toBeGreaterThan(30), 30_000, 250);
    const seen = await probes(h.page);
    expect(seen.every((p) => p.mode === 'h264')).toBe(true);
    const counters = seen.map((p) => p.counter);
    expect(counters.at(-1)! - counters[0]!).toBeGreaterThan(20);
    const status = (await h.page.getByTestId('device-fps').textContent()) ?? '';
    expect(status).toMatch(
      new RegExp(
        `^[\\d.]+ fps · ${PHONE.width}×${PHONE.height} · video \\d+×\\d+ at [\\d.]+ Mbit/s · \\d+ ms behind the phone`,
      ),
    );
    expect(Number(/^([\d.]+) fps/.exec(status)?.[1])).toBeGreaterThan(0);
    await h.shot('devices-h264');
  });

  it('goes on across screenrecord’s restarts, no counter value missing beyond the restarts’ few frames', async () => {
    const before = screenrecords();
    await recordProbes(h.page);
    await eventually(() => expect(screenrecords()).toBeGreaterThanOrEqual(before + 2), 60_000, 250);
    const count = (await probes(h.page)).length;
    await eventually(async () => expect((await probes(h.page)).length).toBeGreaterThan(count + 20), 30_000, 250);
    const restarts = screenrecords() - before;
    const counters = (await probes(h.page)).map((p) => p.counter);
    expect(missingCounters(counters).length).toBeLessThanOrEqual(restarts * 2);
    expect(await h.page.getByTestId('device-fps').textContent()).not.toContain('skipped');
  });

  it('taps the device pixel under the pointer on the video', async () => {
    const layout = new VirtualPhone({ model: 'layout', serial: 'layout' });
    const node = /content-desc="Settings"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"/.exec(layout.hierarchyXml());
    const [l, t, r, b] = node!.slice(1).map(Number) as [number, number, number, number];
    const target = { x: Math.round((l + r) / 2), y: Math.round((t + b) / 2) };
    const box = (await h.page.getByTestId('device-screen').boundingBox())!;
    const picture = containedRect({ left: box.x, top: box.y, width: box.width, height: box.height }, PHONE);
    await h.page.mouse.click(
      picture.left + ((target.x + 0.5) / PHONE.width) * picture.width,
      picture.top + ((target.y + 0.5) / PHONE.height) * picture.height,
    );
    await eventually(
      async () =>
        expect(await h.page.getByTestId('gesture-outcome').textContent()).toContain(
          `Tap at (${target.x}, ${target.y})`,
        ),
      20_000,
    );
    await eventually(() => expect(device.phone.hierarchyXml()).toContain('com.android.settings'), 20_000);
    device.phone.goHome();
  });

  it('shares one screenrecord between two pages, and stops it when both stop watching', async () => {
    const second = await h.browser.newPage({ viewport: { width: 1200, height: 900 } });
    try {
      await second.goto(h.host.uiLink());
      await second.goto(`${h.host.address.ui}#/devices`);
      await recordProbes(second);
      await eventually(async () => expect((await probes(second)).length).toBeGreaterThan(10), 30_000, 250);
      expect(h.host.screens?.screenStats(device.serial)?.viewers).toHaveLength(2);
      // One screenrecord for both (two only for the moment a restart overlaps the run it replaces).
      await eventually(() => expect(compositorOf(device.phone).recorders).toBe(1), 15_000);
      for (const page of [h.page, second]) await page.getByRole('button', { name: 'Pause live screen' }).click();
      await eventually(() => expect(h.host.screens?.screenStats(device.serial)).toBeUndefined(), 15_000);
      await eventually(() => expect(compositorOf(device.phone).recorders).toBe(0), 15_000);
    } finally {
      await second.close();
    }
  });

  it('shows screenshots where screenrecord is missing, and says why', async () => {
    recorderSettings(device.phone).support = 'missing';
    try {
      await recordProbes(h.page);
      await h.page.getByRole('button', { name: 'Resume live screen' }).click();
      await eventually(
        async () =>
          expect(await modeText(h.page)).toBe(
            'Screenshots: screenrecord cannot stream from this phone ' +
              '(screenrecord: not found), so screenshots are sent.',
          ),
        30_000,
        250,
      );
      await eventually(
        async () => expect((await probes(h.page)).filter((p) => p.mode === 'screencap').length).toBeGreaterThan(2),
        30_000,
        250,
      );
      expect(await h.page.getByTestId('device-screen').getAttribute('data-mode')).toBe('screencap');
      await h.shot('devices-screencap-fallback');
    } finally {
      recorderSettings(device.phone).support = 'h264';
    }
  });

  it('reports no script or console errors while doing all of this', () => {
    expect(h.problems).toEqual([]);
  });
});
