/**
 * Device tools against the adb CLI, on the same virtual device, in one run with interleaved
 * rounds: Toolgate's tools through the tool layer (validation, the tool, the shared adbkit
 * client) versus spawning `adb -s SERIAL …` per call (async), for echo (shell_execute `echo hi`),
 * getprop, ui_dump and screenshot; plus the frame rate of the live screen stream. The device runs
 * in its own process, as a phone is its own machine. The last line is one JSON object with
 * ratios = spawn time / ours (above 1: ours is faster).
 *
 * Run: `npm run bench -- device` (needs `adb`: apt-get install adb).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultToolExecutor, ToolRegistry, type ToolCall } from '../tools/core';
import { createDeviceService, deviceTools } from '../tools/devices';
import { startAdbServer } from '../tools/devices/virtual';

const ROUNDS = 5;
const CALLS: Record<string, number> = { echo: 60, getprop: 60, ui_dump: 12, screenshot: 8 };
const STREAM_MS = 3_000;

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
  await startAdbServer();
  const { child, serial } = await startDevice();
  const workspace = mkdtempSync(join(tmpdir(), 'toolgate-bench-'));
  const service = createDeviceService();
  const registry = new ToolRegistry();
  registry.registerAll(deviceTools({ service, workspaceRoot: workspace }));
  const executor = new DefaultToolExecutor(registry);

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
    const r = await executor.execute(ours[op]!);
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
      `${op.padEnd(10)} ours p50 ${a.toFixed(2).padStart(8)} ms   adb spawn p50 ${b.toFixed(2).padStart(8)} ms   ratio ${ratios[op]}  (${s.ours.length} calls each)`,
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
    `screen stream: ${fps.toFixed(1)} frames/s over ${STREAM_MS / 1000} s, capture format '${stream.format}' (stream's own estimate ${stream.framesPerSecond().toFixed(1)})`,
  );
  stream.dispose();

  await service.close();
  await adb(['disconnect', serial]).catch(() => undefined);
  child.kill('SIGTERM');
  rmSync(workspace, { recursive: true, force: true });
  console.log(JSON.stringify({ bench: 'device', ratios, fps: Number(fps.toFixed(1)) }));
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
