/**
 * Per-call cost of the v3 pipeline against its peers, measured in one run with interleaved
 * rounds: a no-op tool with a 5-field zod schema called through (a) a plain function, (b) the v2
 * DefaultToolExecutor, (c) the full v3 pipeline (every part on, generous limits), (d) cockatiel
 * wrap(retry, circuitBreaker, timeout), (e) opossum. The last line is one JSON object.
 *
 * Run: `npx tsx --expose-gc bench/pipeline.bench.ts` or `npm run bench -- pipeline`.
 */
import {
  ConsecutiveBreaker,
  ExponentialBackoff,
  TimeoutStrategy,
  circuitBreaker,
  handleAll,
  retry,
  timeout,
  wrap,
} from 'cockatiel';
import { z } from 'zod';
import { DefaultToolExecutor, ToolRegistry, type ToolResult, defineTool, success } from '../tools/core';
import { createPipeline } from '../tools/core/pipeline';

interface OpossumBreaker {
  fire(...args: unknown[]): Promise<unknown>;
}
type OpossumCtor = new (
  action: (...args: unknown[]) => Promise<unknown>,
  options: Record<string, unknown>,
) => OpossumBreaker;
// opossum ships no type declarations; only the constructor and fire() are used here.
const Opossum = require('opossum') as OpossumCtor;

const input = z.object({
  name: z.string().describe('a name'),
  count: z.number().int().describe('a count'),
  ratio: z.number().describe('a ratio'),
  enabled: z.boolean().describe('a flag'),
  note: z.string().optional().describe('an optional note'),
});
const args = { name: 'bench-target', count: 3, ratio: 0.5, enabled: true, note: 'plain words' };
const OK = success('ok');
const noop = (_: z.infer<typeof input>): ToolResult => OK;

const registry = new ToolRegistry();
registry.register(
  defineTool({
    id: 'bench_noop',
    description: 'Does nothing.',
    input,
    metadata: { category: 'utility', risk: 'LOW' },
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
    run: noop,
  }),
);

function makeV3() {
  const pipeline = createPipeline(registry, {
    approval: { decide: async () => ({ decision: 'approve_once' }) },
    rateLimit: { perMinute: { bench_noop: 1e12 } },
    breaker: { failureThreshold: 5 },
    environment: {
      rules: [
        {
          id: 'device-online',
          appliesTo: () => true,
          check: (read) =>
            read('device.online') === false ? { message: 'the device is offline', hint: 'Reconnect it.' } : undefined,
        },
      ],
    },
  });
  pipeline.telemetry?.set('device.online', true, Date.now() + 3_600_000); // stays fresh for the whole run
  return pipeline;
}

const v2 = new DefaultToolExecutor(registry);
const v3 = makeV3();
const cockatiel = wrap(
  retry(handleAll, { maxAttempts: 1, backoff: new ExponentialBackoff() }),
  circuitBreaker(handleAll, { halfOpenAfter: 30_000, breaker: new ConsecutiveBreaker(5) }),
  timeout(30_000, TimeoutStrategy.Aggressive),
);
const opossum = new Opossum(async (a: unknown) => noop(input.parse(a)), { timeout: 30_000, resetTimeout: 30_000 });

const call = { toolId: 'bench_noop', args };
const variants: Record<string, () => Promise<unknown>> = {
  raw: async () => noop(input.parse(args)),
  v2: () => v2.execute(call),
  v3: () => v3.executor.execute(call),
  cockatiel: () => cockatiel.execute(async () => noop(input.parse(args))),
  opossum: () => opossum.fire(args),
};

async function timeRun(fn: () => Promise<unknown>, n: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  return Number(process.hrtime.bigint() - t0) / n; // ns per call
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (!g) throw new Error('run with --expose-gc (npx tsx --expose-gc bench/pipeline.bench.ts)');
  g();
  g();
}

async function main(): Promise<void> {
  const sanity = await v3.executor.execute(call);
  if (!sanity.ok) throw new Error(`v3 pipeline refused the bench call: ${JSON.stringify(sanity)}`);

  const ROUNDS = 7;
  const PER_ROUND = 100_000;
  const samples: Record<string, number[]> = {};
  for (const [name, fn] of Object.entries(variants)) {
    samples[name] = [];
    await timeRun(fn, 20_000); // warm-up
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, fn] of Object.entries(variants)) {
      // cockatiel is ~10× slower per call; fewer calls keep the rounds short.
      samples[name]!.push(await timeRun(fn, name === 'cockatiel' ? PER_ROUND / 5 : PER_ROUND));
    }
  }
  const ns = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)])) as Record<string, number>;
  const raw = ns.raw!;
  console.log(`median of ${ROUNDS} interleaved rounds, sequential awaited calls`);
  for (const [name, perCall] of Object.entries(ns)) {
    const overhead = name === 'raw' ? '' : `  overhead vs raw ${((perCall - raw) / 1000).toFixed(3)} µs`;
    console.log(
      `${name.padEnd(10)} ${(perCall / 1000).toFixed(3)} µs/call  ${Math.round(1e9 / perCall)
        .toLocaleString('en-US')
        .padStart(11)} calls/s${overhead}`,
    );
  }

  // Heap retained by a fresh v3 pipeline after 1,000,000 calls: the trace ring and usage window are bounded.
  const fresh = makeV3();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 1_000_000; i++) await fresh.executor.execute(call);
  gc();
  const heapGrowthMB = (process.memoryUsage().heapUsed - before) / (1024 * 1024);
  console.log(`heap growth after 1,000,000 v3 calls: ${heapGrowthMB.toFixed(2)} MB (spans kept: ${fresh.trace.size})`);

  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  console.log(
    JSON.stringify({
      bench: 'pipeline',
      ratios: {
        v3_vs_cockatiel: round3(ns.v3! / ns.cockatiel!),
        v3_vs_opossum: round3(ns.v3! / ns.opossum!),
        v3_vs_raw: round3(ns.v3! / raw),
      },
      callsPerSec: Math.round(1e9 / ns.v3!),
      heapGrowthMB: round3(heapGrowthMB),
    }),
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
