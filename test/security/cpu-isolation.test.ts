/**
 * Attack (issue 12, item 8): one string_distance call (20,000 characters × 190 candidates) held
 * the whole host for 17.6 s, and 16 concurrent regex_extract {pattern:"(a+)+$"} froze it for 16 s,
 * /healthz included: the bounded work ran on the main thread, one bound after another.
 *
 * Rule: CPU-bound tools compute in a pool of worker threads, each call stopped at its bound by
 * terminating its thread. While hostile calls occupy every worker, the host's event loop stays
 * free (/healthz answers) and another tool's quick call gets the next free worker; every hostile
 * call ends as TIMEOUT saying what to change; the deterministic timeouts neither open the tool's
 * circuit breaker nor get retried, and the pool serves the same tool again afterwards.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpuPool } from '../../tools/common/cpu-pool';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';

let t: TestHost;
let attacker: Client;
let bystander: Client;

beforeAll(async () => {
  t = await startTestHost();
  attacker = await connectClient(t.host, 'hostile-agent');
  bystander = await connectClient(t.host, 'bystander-agent');
});

afterAll(async () => {
  await attacker?.close();
  await bystander?.close();
  await t?.dispose();
});

/** A distinct lowercase string per seed, so no two giant inputs are the same. */
function letters(length: number, seed: number): string {
  let x = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += String.fromCharCode(97 + (x % 26));
  }
  return out;
}

const REGEX_STOPPED = 'regex_extract ran past its 2 s bound and was stopped; simplify the pattern.';
const DISTANCE_STOPPED = 'string_distance ran past its 2 s bound and was stopped; compare fewer or shorter strings.';
const LONG = { timeout: 120_000 };

type Result = Awaited<ReturnType<Client['callTool']>>;

describe('CPU-bound tools under a flood of hostile calls', () => {
  it('keep /healthz and a quick calculation answering, stop every hostile call at its bound, and recover', async () => {
    const pool = cpuPool();
    let settled = 0;
    const track = (call: Promise<Result>) =>
      call.finally(() => {
        settled += 1;
      });
    // Each text differs, so no call can be answered from another's outcome.
    const regexes = Array.from({ length: 16 }, (_, i) =>
      track(
        attacker.callTool(
          { name: 'regex_extract', arguments: { pattern: '(a+)+$', text: `${'a'.repeat(40 + i)}!` } },
          undefined,
          LONG,
        ),
      ),
    );
    const distances = Array.from({ length: 4 }, (_, i) =>
      track(
        attacker.callTool(
          {
            name: 'string_distance',
            arguments: {
              a: letters(20_000, i + 1),
              candidates: Array.from({ length: 190 }, (_, j) => letters(20_000, 1000 * (i + 1) + j)),
            },
          },
          undefined,
          LONG,
        ),
      ),
    );
    // Every worker is computing a hostile call and more wait behind them.
    await expect
      .poll(() => pool.stats(), { timeout: 60_000, interval: 20 })
      .toMatchObject({ busy: pool.size, threads: pool.size });
    await expect.poll(() => pool.stats().waiting, { timeout: 60_000, interval: 20 }).toBeGreaterThan(10);

    const settledAtHealthz: number[] = [];
    for (let i = 0; i < 5; i++) {
      const health = await fetch(new URL('/healthz', t.host.address.ui));
      expect(health.status).toBe(200);
      settledAtHealthz.push(settled);
    }
    expect(settledAtHealthz).toEqual([0, 0, 0, 0, 0]);

    const sum = await bystander.callTool({ name: 'calculate', arguments: { expression: '1+1' } }, undefined, LONG);
    const settledAtCalculate = settled;
    expect(sum.isError).toBeFalsy();
    expect(sum.structuredContent).toMatchObject({ result: '2', value: 2 });
    // The bystander is served while the flood still runs: hostile calls are still waiting or computing.
    // (How many settled before it depends on how busy the machine is; that none is left is what must not be.)
    expect(settledAtCalculate).toBeLessThan(20);

    const stopped = await Promise.all([...regexes, ...distances]);
    stopped.slice(0, 16).forEach((r) => {
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({ code: 'TIMEOUT', message: REGEX_STOPPED });
      expect(textOf(r)).toContain('nested or overlapping quantifiers');
    });
    stopped.slice(16).forEach((r) => {
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({ code: 'TIMEOUT', message: DISTANCE_STOPPED });
    });

    const again = await attacker.callTool({ name: 'regex_extract', arguments: { pattern: 'a+', text: 'caaab' } });
    expect(again.isError).toBeFalsy();
    expect(again.structuredContent).toMatchObject({ count: 1, matches: [{ match: 'aaa', index: 1 }] });
    expect(pool.stats()).toMatchObject({ threads: pool.size, waiting: 0 });
  }, 180_000);

  it('ran each hostile call once: a bound timeout is not retried and leaves the breaker closed', async () => {
    const spans = await t.host.api.listSpans({ toolId: 'regex_extract', limit: 100 });
    const hostile = spans.filter((s) => s.errorCode === 'TIMEOUT');
    expect(hostile).toHaveLength(16);
    expect(new Set(hostile.map((s) => s.callId)).size).toBe(16);
    expect(hostile.every((s) => s.attempt === 1)).toBe(true);
    const breakers = await t.host.api.breakers({});
    for (const toolId of ['regex_extract', 'string_distance']) {
      const view = breakers.find((b) => b.toolId === toolId) ?? {
        state: 'CLOSED',
        consecutiveFailures: 0,
        transitions: [],
      };
      expect(view).toMatchObject({ state: 'CLOSED', consecutiveFailures: 0, transitions: [] });
    }
  });
});
