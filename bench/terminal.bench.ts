/**
 * Terminals against spawning a shell per command, in one run with interleaved rounds:
 * `terminal.run echo hello` in an open terminal (through the tool layer: validation, the gate,
 * typing the line, reading the markers back) versus starting the same shell for each command
 * (`sh -c 'echo hello'`: for the sandbox a fresh bubblewrap sandbox on the same busybox root file
 * system, for the host the host's shell). The host's shell runs with an empty HOME on both sides,
 * so neither reads this account's startup files: an interactive shell runs their prompt hooks at
 * every command, a `sh -c` never does; the same runs with this account's files are printed too.
 *
 * Then output throughput of `yes | head -c 50M` through a host terminal, both ways terminal.run
 * offers. `output: "pty"` (the default): PTY, run framing, screen model, output log, the run's
 * capture; beside its peer in the same run, the same command on a bare node-pty PTY with nothing but
 * a byte counter reading it (measured before and after, the mean taken). The PTY's line discipline
 * turns each LF into CR LF, one character at a time, and on lines of two bytes that work, not the
 * reading, is the ceiling: the bare PTY is printed again with `stty -onlcr`, and the same flood with
 * 128-byte lines through both (alternated, medians), to show what the terminal's own path carries.
 * `output: "pipe"`: the same command at the same prompt with its output through a FIFO the host
 * reads, into the run's bounded tail. The heap is measured before and after each flood, after a
 * full GC. The last line's throughputMBps is pipe mode's when it is at least the PTY's (it says
 * which in throughputMode), with ptyThroughputMBps beside it; heapGrowthMB is the larger of the two
 * floods' growth. In the sandbox, busybox's interactive ash runs `yes` without exec, and there it
 * writes line by line, so its throughput is printed but is busybox's, not the terminal's.
 *
 * Ratios are run time / spawn time (below 1: the open terminal is faster). The bench's approver
 * approves the host terminal for the session, as a person would to let an agent drive it.
 *
 * Run: `npm run bench -- terminal` (needs bubblewrap and busybox-static).
 */
import { spawn } from 'node:child_process';
import { spawn as spawnPty } from '@lydell/node-pty';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRegistry, type ToolResult } from '../tools/core';
import { createPipeline } from '../tools/core/pipeline';
import { terminalFamily } from '../tools/terminal';
import { hostEnvironment, hostShell } from '../tools/terminal/backends/host-backend';
import { installBusyboxRootfs } from '../test/terminal/support/terminal-lab';

const ROUNDS = 3;
const CALLS = 40;
const FLOOD_BYTES = 50 * 1024 * 1024;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

function spawnEcho(file: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('close', () =>
      out.trim() === 'hello' ? resolve() : reject(new Error(`spawn printed ${JSON.stringify(out)}`)),
    );
  });
}

const FLOOD = `yes | head -c ${FLOOD_BYTES}`;
const LONG_LINES = `yes "$(printf %0127d 0)" | head -c ${FLOOD_BYTES}`;

/** MB/s of program output of `command` on a PTY with nothing but node-pty reading it. */
async function bareFlood(shell: string, env: Record<string, string>, command: string): Promise<number> {
  const pty = spawnPty(shell, ['-c', command], { cols: 120, rows: 32, env, encoding: null });
  let bytes = 0;
  const started = performance.now();
  pty.onData((d) => {
    bytes += (d as unknown as Buffer).length;
  });
  await new Promise<void>((resolve) => pty.onExit(() => resolve()));
  if (bytes < FLOOD_BYTES) throw new Error(`the bare PTY delivered ${bytes} bytes`);
  return FLOOD_BYTES / 1024 / 1024 / ((performance.now() - started) / 1000);
}

function heapMB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-terminal-'));
  const workspace = join(dataDir, 'workspace');
  mkdirSync(workspace);
  const accountHome = process.env.HOME;
  process.env.HOME = join(dataDir, 'home');
  mkdirSync(process.env.HOME);
  const tree = installBusyboxRootfs(dataDir);
  const family = terminalFamily({
    dataDir,
    workspaceRoot: workspace,
    settings: { hostEnabled: () => true, workspaces: () => undefined, ubuntuSource: () => undefined },
    approve: async () => ({ decision: 'approve_session', decider: 'bench' }),
  });
  const registry = new ToolRegistry();
  registry.registerAll(family.tools);
  // The pipeline the host runs; its rate limiter is off, as the bench sends calls faster than an agent may.
  const { executor } = createPipeline(registry, { rateLimit: false });
  const call = async (toolId: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const r: ToolResult = await executor.execute({
      toolId,
      args,
      sessionId: 'bench#1',
      requester: { kind: 'mcp', id: 'bench#1' },
    });
    if (!r.ok) throw new Error(`${toolId}: ${r.error.code} ${r.error.message}`);
    return r.structured as Record<string, unknown>;
  };

  const sandboxId = (await call('terminal.create', { backend: 'sandbox' })).id as string;
  const hostId = (await call('terminal.create', { backend: 'host' })).id as string;
  // The same shell with this account's startup files (its prompt hooks), for the record only.
  if (accountHome) process.env.HOME = accountHome;
  const accountId = (await call('terminal.create', { backend: 'host' })).id as string;
  process.env.HOME = join(dataDir, 'home');
  const runEcho = async (id: string) => {
    const r = await call('terminal.run', { id, command: 'echo hello' });
    if (r.output !== 'hello') throw new Error(`run printed ${JSON.stringify(r.output)}`);
  };
  const sandboxSpawn = async () => {
    const r = await family.sandbox.runOnce(tree, ['/bin/sh', '-c', 'echo hello'], {
      network: false,
      privileged: false,
      timeoutMs: 30_000,
    });
    if (r.output.trim() !== 'hello') throw new Error(`sandbox spawn printed ${JSON.stringify(r.output)}`);
  };
  const shell = hostShell();
  const env = hostEnvironment('bench');
  const hostSpawn = () => spawnEcho(shell, ['-c', 'echo hello'], env);

  const ops = {
    sandbox: { run: () => runEcho(sandboxId), spawn: sandboxSpawn },
    host: { run: () => runEcho(hostId), spawn: hostSpawn },
  };
  const samples: Record<string, { run: number[]; spawn: number[] }> = {
    sandbox: { run: [], spawn: [] },
    host: { run: [], spawn: [] },
  };
  const time = async (fn: () => Promise<void>, n: number, into: number[]) => {
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await fn();
      into.push(performance.now() - t);
    }
  };
  for (const op of Object.values(ops)) {
    await time(op.run, 3, []);
    await time(op.spawn, 3, []);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, op] of Object.entries(ops)) {
      const s = samples[name]!;
      // Alternate which side goes first so neither always runs on a warmer machine.
      if (round % 2 === 0) await time(op.run, CALLS, s.run), await time(op.spawn, CALLS, s.spawn);
      else await time(op.spawn, CALLS, s.spawn), await time(op.run, CALLS, s.run);
    }
  }
  const ratios: Record<string, number> = {};
  for (const [name, s] of Object.entries(samples)) {
    const run = median(s.run);
    const sp = median(s.spawn);
    ratios[`run_vs_spawn_${name}`] = Number((run / sp).toFixed(3));
    console.log(
      `${name.padEnd(8)} terminal.run p50 ${run.toFixed(2).padStart(7)} ms   spawn per command p50 ` +
        `${sp.toFixed(2).padStart(7)} ms   run/spawn ${ratios[`run_vs_spawn_${name}`]}  (${s.run.length} each)`,
    );
  }

  const accountRuns: number[] = [];
  await time(() => runEcho(accountId), 3, []);
  await time(() => runEcho(accountId), CALLS, accountRuns);
  console.log(
    `host     terminal.run p50 ${median(accountRuns).toFixed(2).padStart(7)} ms   with this account's own shell ` +
      `startup files (${accountHome ?? 'no HOME'}): the shell's prompt hooks, not the terminal`,
  );

  const flood = async (id: string, command: string, output: 'pty' | 'pipe' = 'pty') => {
    const started = performance.now();
    const r = await call('terminal.run', { id, command, output, timeoutMs: 600_000 });
    return { r, seconds: (performance.now() - started) / 1000 };
  };
  const mbps = (seconds: number) => FLOOD_BYTES / 1024 / 1024 / seconds;
  /** One flood through the host terminal, with the heap before and after (full GC) and its peak between. */
  const measuredFlood = async (output: 'pty' | 'pipe') => {
    const before = heapMB();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed / 1024 / 1024);
    }, 50);
    const { r, seconds } = await flood(hostId, FLOOD, output);
    clearInterval(sampler);
    const after = heapMB();
    if (r.bytes !== FLOOD_BYTES && output === 'pipe') throw new Error(`pipe mode carried ${r.bytes} bytes`);
    return { r, seconds, before, after, peak, mbps: Number(mbps(seconds).toFixed(1)) };
  };
  const bareBefore = await bareFlood(shell, env, FLOOD);
  const pty = await measuredFlood('pty');
  const bareAfter = await bareFlood(shell, env, FLOOD);
  const pipe = await measuredFlood('pipe');
  const bare = (bareBefore + bareAfter) / 2;
  const ptyThroughputMBps = pty.mbps;
  const pipeThroughputMBps = pipe.mbps;
  const usePipe = pipeThroughputMBps >= ptyThroughputMBps;
  const throughputMBps = usePipe ? pipeThroughputMBps : ptyThroughputMBps;
  // Both runs' growth, the larger reported: memory is bounded in each mode, not just the faster one.
  const heapGrowthMB = Number(Math.max(pty.after - pty.before, pipe.after - pipe.before).toFixed(1));
  const throughputVsBare = Number((ptyThroughputMBps / bare).toFixed(2));
  const snap = await call('terminal.snapshot', { id: hostId });
  console.log(
    `yes | head -c 50M on a bare node-pty PTY: ${bareBefore.toFixed(1)} MB/s before, ` +
      `${bareAfter.toFixed(1)} MB/s after (the peer: ${bare.toFixed(1)} MB/s)`,
  );
  const heap = (m: { before: number; after: number; peak: number }) =>
    `heap ${m.before.toFixed(1)} → ${m.after.toFixed(1)} MB, peak ${m.peak.toFixed(1)} MB`;
  console.log(
    `yes | head -c 50M in a host terminal, output "pty":  ${ptyThroughputMBps} MB/s of program output, ` +
      `${throughputVsBare} of the bare PTY (${pty.seconds.toFixed(1)} s; ` +
      `${((pty.r.bytes as number) / 1024 / 1024).toFixed(1)} MB reached the terminal after the PTY's CR LF; ` +
      `run answer ${(pty.r.output as string).length} characters; screen skipped ` +
      `${((snap.skippedBytes as number) / 1024 / 1024).toFixed(1)} MB; ${heap(pty)})`,
  );
  console.log(
    `yes | head -c 50M in a host terminal, output "pipe": ${pipeThroughputMBps} MB/s ` +
      `(${pipe.seconds.toFixed(2)} s; run answer ${(pipe.r.output as string).length} characters; ` +
      `output tail held at most ${pipe.r.peakHeldBytes} bytes; ${heap(pipe)})`,
  );
  const noCrLf = await bareFlood(shell, env, `stty -onlcr; ${FLOOD}`);
  console.log(
    `yes | head -c 50M on a bare PTY without CR LF translation (stty -onlcr): ${noCrLf.toFixed(1)} MB/s: the line ` +
      `discipline's work per line is the ceiling above`,
  );
  // Alternated, medians: these run fast enough for the machine's load to swing between them.
  const longBare: number[] = [];
  const longTerminal: number[] = [];
  for (let i = 0; i < 3; i++) {
    longBare.push(await bareFlood(shell, env, LONG_LINES));
    longTerminal.push(mbps((await flood(hostId, LONG_LINES)).seconds));
  }
  console.log(
    `128-byte lines, 50M, median of 3 alternated: bare PTY ${median(longBare).toFixed(1)} MB/s, host terminal ` +
      `${median(longTerminal).toFixed(1)} MB/s (${(median(longTerminal) / median(longBare)).toFixed(2)} of the ` +
      `bare PTY)`,
  );
  const small = 5 * 1024 * 1024;
  const sandboxMBps: Record<string, string> = {};
  for (const output of ['pty', 'pipe']) {
    const sbStart = performance.now();
    await call('terminal.run', { id: sandboxId, command: `yes | head -c ${small}`, output, timeoutMs: 600_000 });
    sandboxMBps[output] = (small / 1024 / 1024 / ((performance.now() - sbStart) / 1000)).toFixed(1);
  }
  console.log(
    `yes | head -c 5M in the busybox sandbox: ${sandboxMBps.pty} MB/s through the PTY, ${sandboxMBps.pipe} MB/s ` +
      'through the pipe (busybox: its interactive ash runs `yes` without exec, and it writes line by line there; ' +
      'the same pipeline under `sh -c` writes 4 KB at a time)',
  );

  await family.close();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(
    JSON.stringify({
      bench: 'terminal',
      ratios,
      throughputMBps,
      heapGrowthMB,
      ptyThroughputMBps,
      pipeThroughputMBps,
      throughputMode: usePipe ? 'pipe' : 'pty',
      bareThroughputMBps: Number(bare.toFixed(1)),
      throughputVsBare,
    }),
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
