/**
 * Device tools against the adb CLI, on the same virtual device, in one run with interleaved
 * rounds: Toolgate's tools through the pipeline the host runs (environment gate with the device
 * rules, validation, approval gate, breaker, run policy and spans, then the tool and the shared
 * adbkit client; test/support/family-pipeline.ts, per-minute quotas off) versus spawning
 * `adb -s SERIAL …` per call (async), for echo (shell_execute `echo hi`),
 * getprop, ui_dump and screenshot; plus the frame rate of the live screen stream. The device runs
 * in its own process, as a phone is its own machine. Then, per device profile (pixel, samsung,
 * xiaomi, legacy, foldable) with the phone taking a real phone's time for its commands
 * (timeScale 1), the wall time of ui_dump and of a tap-and-dump round trip (ui_tap, then ui_dump),
 * each also as a ratio to pixel's. The last line is one JSON object with ratios = spawn time / ours
 * (above 1: ours is faster) and the per-profile times.
 *
 * Everything talks to a private adb server on a free port (ANDROID_ADB_SERVER_PORT, which the adb
 * CLI follows), so the bench neither sees nor disturbs phones on the default server.
 *
 * Run: `npm run bench -- device` (needs `adb`: apt-get install adb).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, killAdbServer } from '../test/support/private-adb';
import type { ToolCall } from '../tools/core';
import { createDeviceService, deviceEnvironmentRules, deviceTools } from '../tools/devices';
import {
  PROFILE_NAMES,
  type ProfileName,
  connectToAdb,
  disconnectFromAdb,
  runAdb,
  startVirtualDevice,
} from '../tools/devices/virtual';
import { type FamilyPipeline, familyPipeline } from '../test/support/family-pipeline';

const ROUNDS = 5;
const CALLS: Record<string, number> = { echo: 60, getprop: 60, ui_dump: 12, screenshot: 8 };
const STREAM_MS = 3_000;
const PROFILE_CALLS = 5;

function adb(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('adb', args, { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 }, (err) =>
      err ? reject(err) : resolve(),
    );
  });
}

function startDevice(): Promise<{ child: ChildProcess; serial: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, '..', 'tools', 'devices', 'virtual', 'main.ts')],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the virtual device exited (${code})`)));
    child.stdout!.on('data', (d: Buffer) => {
      const m = /listening on (\S+)/.exec(d.toString());
      if (m) resolve({ child, serial: m[1]! });
    });
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const adbPort = await freePort();
  // The adb CLI here and in the device's process follows it; adbkit is told the port.
  process.env.ANDROID_ADB_SERVER_PORT = String(adbPort);
  await runAdb(['-P', String(adbPort), 'start-server']);
  const { child, serial } = await startDevice();
  const workspace = mkdtempSync(join(tmpdir(), 'toolgate-bench-'));
  // Wired as tools/host/families.ts wires the family: the host's telemetry, the device rules, in-tool approvals.
  const family = familyPipeline();
  const service = createDeviceService({ adbPort, telemetry: family.telemetry });
  family.registry.registerAll(deviceTools({ service, workspaceRoot: workspace, approveCommand: family.askInTool }));
  family.addRules(deviceEnvironmentRules(service));

  const ours: Record<string, ToolCall> = {
    echo: { toolId: 'shell_execute', args: { command: 'echo hi', serial } },
    getprop: { toolId: 'shell_execute', args: { command: 'getprop ro.product.model', serial } },
    ui_dump: { toolId: 'ui_dump', args: { serial } },
    screenshot: { toolId: 'screenshot', args: { serial } },
  };
  const theirs: Record<string, string[]> = {
    echo: ['-s', serial, 'shell', 'echo', 'hi'],
    getprop: ['-s', serial, 'shell', 'getprop', 'ro.product.model'],
    ui_dump: ['-s', serial, 'exec-out', 'uiautomator', 'dump', '/dev/tty'],
    screenshot: ['-s', serial, 'exec-out', 'screencap', '-p'],
  };
  const runOurs = async (op: string) => {
    const r = await family.pipeline.executor.execute(ours[op]!);
    if (!r.ok) throw new Error(`${op}: ${r.error.code} ${r.error.message}`);
  };
  const time = async (fn: () => Promise<void>, n: number, into: number[]) => {
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await fn();
      into.push(performance.now() - t);
    }
  };

  const samples: Record<string, { ours: number[]; spawn: number[] }> = {};
  for (const op of Object.keys(ours)) {
    samples[op] = { ours: [], spawn: [] };
    await time(() => runOurs(op), 3, []); // warm-up
    await time(() => adb(theirs[op]!), 2, []);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const op of Object.keys(ours)) {
      const s = samples[op]!;
      // Alternate which side goes first so neither always runs on a warmer machine.
      if (round % 2 === 0)
        await time(() => runOurs(op), CALLS[op]!, s.ours), await time(() => adb(theirs[op]!), CALLS[op]!, s.spawn);
      else await time(() => adb(theirs[op]!), CALLS[op]!, s.spawn), await time(() => runOurs(op), CALLS[op]!, s.ours);
    }
  }

  const ratios: Record<string, number> = {};
  for (const [op, s] of Object.entries(samples)) {
    const a = median(s.ours);
    const b = median(s.spawn);
    ratios[op] = Number((b / a).toFixed(2));
    console.log(
      `${op.padEnd(10)} ours p50 ${a.toFixed(2).padStart(8)} ms   adb spawn p50 ${b.toFixed(2).padStart(8)} ms   ` +
        `ratio ${ratios[op]}  (${s.ours.length} calls each)`,
    );
  }

  let frames = 0;
  const stream = service.startScreenStream(serial, () => frames++);
  await new Promise((r) => setTimeout(r, 500)); // let the first frames in
  const startFrames = frames;
  const started = performance.now();
  await new Promise((r) => setTimeout(r, STREAM_MS));
  const fps = ((frames - startFrames) * 1000) / (performance.now() - started);
  console.log(
    `screen stream: ${fps.toFixed(1)} frames/s over ${STREAM_MS / 1000} s, capture format '${stream.format}' ` +
      `(stream's own estimate ${stream.framesPerSecond().toFixed(1)})`,
  );
  stream.dispose();

  const profiles: Record<string, { uiDumpMs: number; tapDumpMs: number; deviceMs: number }> = {};
  for (const profile of PROFILE_NAMES) profiles[profile] = await profileTimes(family, profile);
  const pixel = profiles.pixel!;
  for (const [name, t] of Object.entries(profiles)) {
    console.log(
      `${name.padEnd(9)} ui_dump p50 ${t.uiDumpMs.toFixed(0).padStart(6)} ms ` +
        `(x${(t.uiDumpMs / pixel.uiDumpMs).toFixed(2)} of pixel)   tap+dump ` +
        `p50 ${t.tapDumpMs.toFixed(0).padStart(6)} ms (x${(t.tapDumpMs / pixel.tapDumpMs).toFixed(2)})   phone's own ` +
        `time per round trip ${t.deviceMs} ms`,
    );
  }

  await service.close();
  await adb(['disconnect', serial]).catch(() => undefined);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await killAdbServer(adbPort);
  rmSync(workspace, { recursive: true, force: true });
  const perProfile = Object.fromEntries(
    Object.entries(profiles).map(([name, t]) => [
      name,
      {
        uiDumpP50Ms: Math.round(t.uiDumpMs),
        tapDumpP50Ms: Math.round(t.tapDumpMs),
        uiDumpVsPixel: Number((t.uiDumpMs / pixel.uiDumpMs).toFixed(2)),
        tapDumpVsPixel: Number((t.tapDumpMs / pixel.tapDumpMs).toFixed(2)),
      },
    ]),
  );
  console.log(JSON.stringify({ bench: 'device', ratios, fps: Number(fps.toFixed(1)), profiles: perProfile }));
}

/**
 * ui_dump and tap-and-dump on one profile's phone taking a real phone's time (timeScale 1). The tap
 * toggles the Shop's gift-wrap box, which changes the screen without a window transition.
 */
async function profileTimes(
  family: FamilyPipeline,
  profile: ProfileName,
): Promise<{ uiDumpMs: number; tapDumpMs: number; deviceMs: number }> {
  const device = await startVirtualDevice({ profile, timeScale: 1 });
  await connectToAdb(device);
  const injection = device.phone.profile.oem.inputInjection;
  if (injection) device.phone.props.set(injection.prop, '1'); // as the person turns the setting on
  const serial = device.serial;
  const call = async (toolId: string, args: Record<string, unknown> = {}) => {
    const r = await family.call(toolId, { ...args, serial });
    if (!r.ok) throw new Error(`${profile} ${toolId}: ${r.error.code} ${r.error.message}`);
    return r;
  };
  try {
    await call('app_launch', { packageName: 'com.example.shop' });
    const dump = await call('ui_dump');
    const line = (dump.content[0] as { text: string }).text.split('\n').find((l) => l.includes('id=gift_wrap')) ?? '';
    const [, x, y] = /@(\d+),(\d+)/.exec(line) ?? [];
    const dumps: number[] = [];
    const rounds: number[] = [];
    for (let i = 0; i < PROFILE_CALLS; i++) {
      let t = performance.now();
      await call('ui_dump');
      dumps.push(performance.now() - t);
      t = performance.now();
      await call('ui_tap', { x: Number(x), y: Number(y) });
      await call('ui_dump');
      rounds.push(performance.now() - t);
    }
    const timing = device.phone.profile.timing;
    return { uiDumpMs: median(dumps), tapDumpMs: median(rounds), deviceMs: timing.inputStartMs + timing.uiDumpMs };
  } finally {
    await disconnectFromAdb(device);
    await device.close();
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
