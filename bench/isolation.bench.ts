/**
 * The host stays responsive while hostile CPU-bound calls run: /healthz latency and the round
 * trip of a destructive call approved as soon as it is pending (delete_file through MCP, decided
 * through the host API), measured with no load (the peer baseline) and while a second process
 * sends 16 catastrophic regex_extract calls and 4 giant string_distance calls (20,000 characters
 * against 190 candidates) through MCP. Each run also reports the host's largest event-loop delay.
 * Goal: p99 of both ≤ 50 ms under load. The last line is one JSON object.
 *
 * The measuring clients run in this process, beside the host, as they always have: a probe
 * process of their own adds its scheduling to every round trip on a shared machine. A loaded
 * run's window opens when the load process starts sending (its arguments made) and closes when
 * its last call has ended. Each line names the machine's load average: on 2 cores shared with
 * other work, that load, not the host, sets the tail.
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

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-isolation-'));
  const host = await startHost({ dataDir, port: 0, approvalTimeoutMs: 60_000 });
  // The agents here use the structured and files tools: the person gave the default client every toolset.
  host.clientTokens.setToolsets(
    'default',
    host.registry.toolsets().map((t) => t.name),
  );
  const workspace = join(dataDir, 'workspace');
  host.events.on((e) => {
    if (e.type === 'approval-pending')
      void host.api.decideApproval({ approvalId: e.approval.approvalId, decision: 'approve_once' });
  });
  const agent = await client(host.address.mcp, host.token, 'bench-approvals');
  const healthzUrl = new URL('/healthz', host.address.ui);
  let fileNo = 0;

  async function sample(until: () => boolean): Promise<Samples> {
    const out: Samples = { healthz: [], approval: [], loopMaxMs: 0 };
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const healthz = (async () => {
      while (!until()) {
        const t0 = performance.now();
        const r = await fetch(healthzUrl);
        await r.arrayBuffer();
        out.healthz.push(performance.now() - t0);
        if (r.status !== 200) throw new Error(`/healthz answered ${r.status}`);
        await sleep(SAMPLE_GAP_MS);
      }
    })();
    const approvals = (async () => {
      while (!until()) {
        const name = `victim-${fileNo++}.txt`;
        writeFileSync(join(workspace, name), 'x');
        const t0 = performance.now();
        const r = await agent.callTool({ name: 'delete_file', arguments: { path: name } });
        out.approval.push(performance.now() - t0);
        if (r.isError) throw new Error(`delete_file failed: ${JSON.stringify(r.content)}`);
        await sleep(SAMPLE_GAP_MS);
      }
    })();
    await Promise.all([healthz, approvals]);
    loop.disable();
    out.loopMaxMs = loop.max / 1e6;
    return out;
  }

  const line = (label: string, s: Samples, extra = '') =>
    console.log(
      `${label}: healthz p50 ${ms(pct(s.healthz, 0.5))} p99 ${ms(pct(s.healthz, 0.99))} ms (n=${s.healthz.length}) | ` +
        `approval p50 ${ms(pct(s.approval, 0.5))} p99 ${ms(pct(s.approval, 0.99))} ms (n=${s.approval.length}) | ` +
        `event-loop max ${ms(s.loopMaxMs)} ms | load average ${loadavg()[0]?.toFixed(1)} ` +
        `on ${availableParallelism()} cores${extra}`,
    );

  const warm = Date.now() + 2000;
  await sample(() => Date.now() > warm);
  const baselineEnd = Date.now() + BASELINE_MS;
  line('baseline, no load', await sample(() => Date.now() > baselineEnd));

  const loaded: Samples = { healthz: [], approval: [], loopMaxMs: 0 };
  for (let run = 1; run <= RUNS; run++) {
    let summary = '';
    let done = false;
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, 'load'], {
      env: { ...process.env, BENCH_MCP_URL: host.address.mcp, BENCH_TOKEN: host.token, BENCH_RUN: String(run) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let sending: () => void = () => undefined;
    const sent = new Promise<void>((r) => {
      sending = r;
    });
    child.stdout.on('data', (c: Buffer) => {
      summary += c.toString();
      if (summary.startsWith(`${SENDING}\n`)) sending();
    });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    void exited.then(() => {
      done = true;
      sending();
    });
    // From the moment the hostile calls leave the load process until the last of them has ended.
    await sent;
    const s = await sample(() => done);
    if ((await exited) !== 0) throw new Error(`the load process failed: ${summary}`);
    const { codes, seconds } = JSON.parse(summary.slice(summary.indexOf('\n') + 1).trim()) as {
      codes: Record<string, number>;
      seconds: number;
    };
    const ended = Object.entries(codes)
      .map(([code, n]) => `${n} ${code}`)
      .join(', ');
    line(`run ${run}, 16 regex + 4 string_distance`, s, ` | hostile calls ${ended} in ${seconds} s`);
    loaded.healthz.push(...s.healthz);
    loaded.approval.push(...s.approval);
    loaded.loopMaxMs = Math.max(loaded.loopMaxMs, s.loopMaxMs);
  }
  line('all runs under load', loaded);

  await agent.close();
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

void (process.argv[2] === 'load' ? load() : main()).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
