/**
 * The live phone screen, glass to glass, on a real cable's budget: the virtual phone at 1080×2400
 * behind a link throttled to USB 2 (35 MB/s, 1 ms each way), watched on the Devices page in real
 * Chromium. The phone draws its frame counter and clock into its status bar; the page reads them
 * back from the canvas after painting each frame, so a frame's latency is from the phone composing
 * it to the page showing it, and the frame rate is frames painted per second. Measured twice in the
 * same run: H.264 from the phone's encoder (screenrecord), then screenshots (screenrecord made
 * missing on the phone, so the host falls back to screencap as it would on such a phone).
 *
 * Run: `npm run bench -- screen`. The last line is one JSON object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Page, chromium } from 'playwright-core';
import { startHost } from '../tools/host/host';
import {
  connectToAdb,
  disconnectFromAdb,
  recorderSettings,
  runAdb,
  startVirtualDevice,
} from '../tools/devices/virtual';
import { ensureRendererBuild } from '../test/ui/support/renderer-build';
import { freePort, killAdbServer } from '../test/support/private-adb';
import { LINUX_ARGS } from '../tools/browser/launch';

const WARM_UP_MS = 4_000;
const MEASURE_MS = 15_000;
const SCREEN = { width: 1080, height: 2400 };

interface Probe {
  counter: number;
  latencyMs: number;
  mode: string;
  at: number;
}

interface Measured {
  fps: number;
  frames: number;
  latencyP50Ms: number;
  latencyP95Ms: number;
  status: string;
  mode: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

async function waitFor(what: string, ms: number, probe: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function measure(page: Page, mode: string, received: () => number): Promise<Measured & { receivedFps: number }> {
  await waitFor(
    `mode ${mode}`,
    60_000,
    async () => (await page.getByTestId('device-screen').getAttribute('data-mode')) === mode,
  );
  await page.evaluate(() => {
    const w = window as unknown as { probes: Probe[]; listening?: boolean };
    w.probes = [];
    if (w.listening) return;
    w.listening = true;
    document
      .querySelector('[data-testid="device-screen"]')
      ?.addEventListener('toolgate-screen-probe', (e) => w.probes.push((e as CustomEvent<Probe>).detail));
  });
  await new Promise((r) => setTimeout(r, WARM_UP_MS));
  await page.evaluate(() => {
    (window as unknown as { probes: Probe[] }).probes = [];
  });
  const receivedBefore = received();
  await new Promise((r) => setTimeout(r, MEASURE_MS));
  const receivedFps = (received() - receivedBefore) / (MEASURE_MS / 1000);
  const probes = (await page.evaluate(() => (window as unknown as { probes: Probe[] }).probes)).filter(
    (p) => p.mode === mode,
  );
  const status = (await page.getByTestId('device-fps').textContent()) ?? '';
  const first = probes[0];
  const last = probes.at(-1);
  const span = first && last && last.at > first.at ? (last.at - first.at) / 1000 : MEASURE_MS / 1000;
  const latencies = probes.map((p) => p.latencyMs).sort((a, b) => a - b);
  return {
    fps: probes.length > 1 ? (probes.length - 1) / span : 0,
    frames: probes.length,
    latencyP50Ms: percentile(latencies, 0.5),
    latencyP95Ms: percentile(latencies, 0.95),
    status,
    mode: (await page.getByTestId('screen-mode').textContent()) ?? '',
    receivedFps,
  };
}

const round = (n: number, digits = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : null);

async function main(): Promise<void> {
  process.env.TOOLGATE_QUIET = '1';
  const rendererDir = await ensureRendererBuild();
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-screen-'));
  const adbPort = await freePort();
  process.env.ANDROID_ADB_SERVER_PORT = String(adbPort);
  // Started here first: the host and `adb connect` would otherwise race to start it.
  await runAdb(['-P', String(adbPort), 'start-server']);
  const host = await startHost({ dataDir, port: 0, rendererDir, adbPort });
  const device = await startVirtualDevice({ screen: SCREEN, link: 'usb2' });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: LINUX_ARGS,
  });
  try {
    await connectToAdb(device);
    await waitFor('the phone online', 45_000, async () =>
      (await host.api.devices({})).some((d) => d.serial === device.serial && d.state === 'device'),
    );
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await page.goto(host.uiLink());
    await page.goto(`${host.address.ui}#/devices/${encodeURIComponent(device.serial)}`);

    const received = () => host.screens?.screenStats(device.serial)?.frames ?? 0;
    const h264 = await measure(page, 'h264', received);
    console.log(
      `h264:      ${h264.fps.toFixed(1)} frames painted/s over ${MEASURE_MS / 1000} s (${h264.frames} frames), ` +
        `glass to glass p50 ${h264.latencyP50Ms} ms, p95 ${h264.latencyP95Ms} ms`,
    );
    console.log(
      `           the host received ${h264.receivedFps.toFixed(1)} frames/s from the phone; page: ${h264.status}`,
    );
    console.log(`           ${h264.mode}`);

    await page.getByRole('button', { name: 'Pause live screen' }).click();
    await waitFor('the stream to stop', 15_000, async () => host.screens?.screenStats(device.serial) === undefined);
    recorderSettings(device.phone).support = 'missing';
    await page.getByRole('button', { name: 'Resume live screen' }).click();
    const screencap = await measure(page, 'screencap', received);
    console.log(
      `screencap: ${screencap.fps.toFixed(1)} frames painted/s over ${MEASURE_MS / 1000} s (${screencap.frames} ` +
        `frames), glass to glass p50 ${screencap.latencyP50Ms} ms, p95 ${screencap.latencyP95Ms} ms`,
    );
    console.log(
      `           the host received ${screencap.receivedFps.toFixed(1)} frames/s from the phone; ` +
        `page: ${screencap.status}`,
    );
    console.log(`           ${screencap.mode}`);
    console.log(
      `phone ${SCREEN.width}×${SCREEN.height}, link ${device.link.bytesPerSecond! / 1e6} MB/s ` +
        `with ${device.link.latencyMs} ms latency each way, viewport 1600×1000`,
    );
    console.log(
      JSON.stringify({
        bench: 'screen',
        h264: {
          fps: round(h264.fps),
          latencyP50Ms: round(h264.latencyP50Ms, 0),
          latencyP95Ms: round(h264.latencyP95Ms, 0),
        },
        screencap: { fps: round(screencap.fps) },
        ratios: { fps_h264_vs_screencap: screencap.fps > 0 ? round(h264.fps / screencap.fps) : null },
      }),
    );
  } finally {
    await browser.close().catch(() => undefined);
    await disconnectFromAdb(device).catch(() => undefined);
    await device.close();
    await host.close();
    await killAdbServer(adbPort);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  },
);
