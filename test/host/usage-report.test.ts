/**
 * Rule: span events are numbered 1, 2, 3… in the order the host records them, and a usage report
 * says up to which number it counts, so the UI can fold the live stream into a report without
 * counting a span twice or losing one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../shared/contract';
import { type TestHost, startTestHost } from './harness';

let t: TestHost;
const seqs: number[] = [];
beforeAll(async () => {
  t = await startTestHost();
  t.host.events.on((e: HostEvent) => {
    if (e.type === 'span') seqs.push(e.seq);
  });
});
afterAll(async () => t?.dispose());

describe('usage reports and span events', () => {
  it('number span events consecutively; a report counts the calls up to its number (a span each)', async () => {
    expect((await t.host.api.usage({})).throughSeq).toBe(0);
    for (const expression of ['1 + 1', '2 * 3', '', '7 - 2'])
      await t.host.api.callTool({ toolId: 'calculate', args: { expression } });
    const report = await t.host.api.usage({});
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(report.throughSeq).toBe(seqs.at(-1));
    expect(report.stats.reduce((n, s) => n + s.calls, 0)).toBe(report.throughSeq);
  });
});
