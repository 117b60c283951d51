/**
 * The host stays responsive while hostile CPU-bound calls run: /healthz latency and the round
 * trip of a destructive call approved as soon as it is pending (delete_file through MCP, decided
 * through the host API), measured with no load (the peer baseline) and while a second process
 * sends 16 catastrophic regex_extract calls and 4 giant string_distance calls (20,000 characters
 * against 190 candidates) through MCP. Each run also reports the host's largest event-loop delay.
 * Goal: p99 of both ≤ 50 ms under load. The last line is one JSON object.
 *
 * Three processes, as in use: the host (this one, which also stands in for the person approving),
 * the probe (the clients that measure, timing each round trip from their side) and the hostile
 * load. A loaded run's window opens when the load process starts sending and closes when its
 * last call has ended.
 *
 * Run: `npm run bench -- isolation`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { closeCpuPool } from '../tools/common/cpu-pool';
import { startHost } from '../tools/host/host';

process.env.TOOLGATE_QUIET = '1';
const RUNS = 3;
const BASELINE_MS = 10_000;
const SAMPLE_GAP_MS = 20;

async function client(url: string, token: string, name: string): Promise<Client> {
  const c = new Client({ name, version: '1.0.0' });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return c;
}

/**
 * Pseudo-random lower-case letters. Made in a byte buffer: concatenating 15 million characters one
 * at a time cost the load process over two seconds of CPU, beside the host on a 2-core machine.
 */
function letters(length: number, seed: number): string {
  let x = seed;
  const out = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out[i] = 97 + (x % 26);
  }
  return out.toString('latin1');
}

/** What the load process prints once its calls are made and about to be sent: the measured window starts there. */
const SENDING = 'sending';

/** The load process: the hostile calls, all at once; prints how each ended. */
async function load(): Promise<void> {
  const c = await client(process.env.BENCH_MCP_URL ?? '', process.env.BENCH_TOKEN ?? '', 'hostile-load');
  const run = Number(process.env.BENCH_RUN ?? 0);
  const long = { timeout: 300_000 };
  const distanceArgs = Array.from({ length: 4 }, (_, i) => ({
    a: letters(20_000, run * 100 + i + 1),
    candidates: Array.from({ length: 190 }, (_, j) => letters(20_000, 100_000 * (run + 1) + 1000 * i + j)),
  }));
  console.log(SENDING);
  const started = performance.now();
  const regexes = Array.from({ length: 16 }, (_, i) =>
    c.callTool(
      { name: 'regex_extract', arguments: { pattern: '(a+)+$', text: `${'a'.repeat(40 + i + run)}!` } },
      undefined,
      long,
    ),
  );
  const distances = distanceArgs.map((args) =>
    c.callTool({ name: 'string_distance', arguments: args }, undefined, long),
  );
  const ended = await Promise.all([...regexes, ...distances]);
  const codes: Record<string, number> = {};
  for (const r of ended) {
    const error = r.structuredContent as { code?: string; data?: { reason?: string } } | undefined;
    // A TIMEOUT at the tool's own bound, or another ending (the pipeline's 30 s limit while queued).
    const code = !r.isError ? 'ok' : error?.data?.reason === 'cpu-bound' ? 'TIMEOUT at its bound' : String(error?.code);
    codes[code] = (codes[code] ?? 0) + 1;
  }
  await c.close();
  console.log(JSON.stringify({ codes, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) }));
}

/**
 * The probe process: the bench's own clients, apart from the host as an agent would be, so their
 * work (the MCP client, SSE parsing, fetch) is not done on the event loop and heap they measure.
 * It samples /healthz and an approval round trip (delete_file of a fresh file, approved by the
 * host process as soon as it is pending) one after another, each followed by a short gap, and
 * prints each as `<kind> <started at, ms since the epoch> <round trip ms>` until stdin closes.
 */
async function probe(): Promise<void> {
  const agent = await client(process.env.BENCH_MCP_URL ?? '', process.env.BENCH_TOKEN ?? '', 'bench-approvals');
  const healthzUrl = new URL('/healthz', process.env.BENCH_MCP_URL);
  const workspace = process.env.BENCH_WORKSPACE ?? '';
  let stopped = false;
  process.stdin.on('close', () => {
    stopped = true;
  });
  process.stdin.resume();
  const report = (kind: string, at: number, took: number) => process.stdout.write(`${kind} ${at} ${took}\n`);
  const healthz = (async () => {
    while (!stopped) {
      const at = epochMs();
      const t0 = performance.now();
      const r = await fetch(healthzUrl);
      await r.arrayBuffer();
      report('healthz', at, performance.now() - t0);
      if (r.status !== 200) throw new Error(`/healthz answered ${r.status}`);
      await sleep(SAMPLE_GAP_MS);
    }
  })();
  const approvals = (async () => {
    for (let fileNo = 0; !stopped; fileNo++) {
      const name = `victim-${fileNo}.txt`;
      writeFileSync(join(workspace, name), 'x');
      const at = epochMs();
      const t0 = performance.now();
      const r = await agent.callTool({ name: 'delete_file', arguments: { path: name } });
      report('approval', at, performance.now() - t0);
      if (r.isError) throw new Error(`delete_file failed: ${JSON.stringify(r.content)}`);
      await sleep(SAMPLE_GAP_MS);
    }
  })();
  process.stdout.write(`${READY}\n`);
  await Promise.all([healthz, approvals]);
  await agent.close();
  process.exit(0);
}

const READY = 'ready';
/** Milliseconds since the epoch with sub-millisecond resolution, comparable across the bench's processes. */
const epochMs = () => performance.timeOrigin + performance.now();

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? 0;
};
const ms = (x: number) => x.toFixed(1);
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

interface Samples {
  healthz: number[];
  approval: number[];
  loopMaxMs: number;
}

interface Sample {
  kind: string;
  at: number;
  took: number;
}

function startProbe(mcp: string, token: string, workspace: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', __filename, 'probe'], {
    env: { ...process.env, BENCH_MCP_URL: mcp, BENCH_TOKEN: token, BENCH_WORKSPACE: workspace },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const samples: Sample[] = [];
  let pending = '';
  let isReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => {
    isReady = r;
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  void exited.then((code) => {
    if (code !== 0 && code !== null) {
      console.error(`the probe process ended with ${code}`);
      process.exit(1);
    }
  });
  child.stdout.on('data', (c: Buffer) => {
    pending += c.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const l of lines) {
      if (l === READY) isReady();
      const [kind, at, took] = l.split(' ');
      if (kind && at && took) samples.push({ kind, at: Number(at), took: Number(took) });
    }
  });
  return {
    ready,
    /** Round trips of a kind that started between `from` and `to`. */
    between: (kind: string, from: number, to: number) =>
      samples.filter((s) => s.kind === kind && s.at >= from && s.at <= to).map((s) => s.took),
    async stop(): Promise<void> {
      child.stdin.end();
      await exited;
    },
  };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-isolation-'));
  const host = await startHost({ dataDir, port: 0, approvalTimeoutMs: 60_000 });
  // The person approves at once, through the host API as the desktop app's IPC channel does.
  host.events.on((e) => {
    if (e.type === 'approval-pending')
      void host.api.decideApproval({ approvalId: e.approval.approvalId, decision: 'approve_once' });
  });
  const probe = startProbe(host.address.mcp, host.token, join(dataDir, 'workspace'));
  await probe.ready;

  /** The probe's samples and the host's largest event-loop delay while `during` runs. */
  async function sample(during: Promise<unknown>): Promise<Samples> {
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const from = epochMs();
    await during;
    const to = epochMs();
    loop.disable();
    return {
      healthz: probe.between('healthz', from, to),
      approval: probe.between('approval', from, to),
      loopMaxMs: loop.max / 1e6,
    };
  }

  const line = (label: string, s: Samples, extra = '') =>
    console.log(
      `${label}: healthz p50 ${ms(pct(s.healthz, 0.5))} p99 ${ms(pct(s.healthz, 0.99))} ms (n=${s.healthz.length}) | ` +
        `approval p50 ${ms(pct(s.approval, 0.5))} p99 ${ms(pct(s.approval, 0.99))} ms (n=${s.approval.length}) | ` +
        `event-loop max ${ms(s.loopMaxMs)} ms | load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores${extra}`,
    );

  await sleep(2000); // warm-up
  line('baseline, no load', await sample(sleep(BASELINE_MS)));

  const loaded: Samples = { healthz: [], approval: [], loopMaxMs: 0 };
  for (let run = 1; run <= RUNS; run++) {
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, 'load'], {
      env: { ...process.env, BENCH_MCP_URL: host.address.mcp, BENCH_TOKEN: host.token, BENCH_RUN: String(run) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let sending: () => void = () => undefined;
    const sent = new Promise<void>((r) => {
      sending = r;
    });
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      if (output.startsWith(`${SENDING}\n`)) sending();
    });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    void exited.then(() => sending());
    // From the moment the hostile calls leave the load process until the last of them has ended.
    await sent;
    const s = await sample(exited);
    if ((await exited) !== 0) throw new Error(`the load process failed: ${output}`);
    const summary = output.slice(output.indexOf('\n') + 1);
    const { codes, seconds } = JSON.parse(summary.trim()) as { codes: Record<string, number>; seconds: number };
    const ended = Object.entries(codes)
      .map(([code, n]) => `${n} ${code}`)
      .join(', ');
    line(`run ${run}, 16 regex + 4 string_distance`, s, ` | hostile calls ${ended} in ${seconds} s`);
    loaded.healthz.push(...s.healthz);
    loaded.approval.push(...s.approval);
    loaded.loopMaxMs = Math.max(loaded.loopMaxMs, s.loopMaxMs);
  }
  line('all runs under load', loaded);

  await probe.stop();
  await host.close();
  await closeCpuPool();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(
    JSON.stringify({
      bench: 'isolation',
      healthzP99Ms: Number(ms(pct(loaded.healthz, 0.99))),
      approvalP99Ms: Number(ms(pct(loaded.approval, 0.99))),
    }),
  );
}

void (process.argv[2] === 'load' ? load() : process.argv[2] === 'probe' ? probe() : main()).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
