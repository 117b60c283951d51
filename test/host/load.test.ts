/**
 * Rule: the host stays alive and loses nothing under concurrent agents: 10 clients × 100
 * concurrent calls give 1,000 results and 1,000 spans.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost, textOf } from './harness';

let t: TestHost;
beforeAll(async () => {
  // The quickRead quota (120/min) would refuse most of a burst; this test is about the host, not the limiter.
  t = await startTestHost({ rateLimitPerMinute: { version_compare: 1_000_000 } });
});
afterAll(async () => t?.dispose());

it('answers 10 clients × 100 concurrent calls with 1,000 results and 1,000 spans', async () => {
  const clients = await Promise.all(Array.from({ length: 10 }, (_, i) => connectClient(t.host, `load-${i}`)));
  const results = await Promise.all(
    clients.flatMap((client, c) =>
      Array.from({ length: 100 }, (_, i) =>
        client.callTool(
          { name: 'version_compare', arguments: { operation: 'compare', a: `1.${c}.${i}`, b: '1.5.0' } },
          undefined,
          { timeout: 120_000 },
        ),
      ),
    ),
  );
  expect(results).toHaveLength(1000);
  expect(results.filter((r) => r.isError)).toEqual([]);
  expect(textOf(results[0]!)).toContain('1.0.0');
  const spans = t.host.api.listSpans({ toolId: 'version_compare', limit: 5000 }) as unknown[];
  expect(spans).toHaveLength(1000);
  expect((await t.host.api.info({})).toolCount).toBeGreaterThan(0);
  await Promise.all(clients.map((c) => c.close()));
});
