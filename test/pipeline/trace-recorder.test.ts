/**
 * Rule guarded (docs/architecture.md#traces): one span per attempt in a bounded ring buffer;
 * completing a handle twice records one span; the args digest holds lengths and printable counts,
 * never text; the error slug is short, stable and never carries argument text; exports and reports
 * are JSON.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ToolError, failure } from '../../tools/core';

import { type SpanStart, ToolTraceRecorder, digestArgs, errorSlug, jsonLength } from '../../tools/core/trace';
import { ManualClock } from '../support/manual-clock';

function start(over: Partial<SpanStart> = {}): SpanStart {
  return {
    callId: 'c1',
    toolId: 'read_file',
    sessionId: 'local',
    requesterKind: 'mcp',
    attempt: 1,
    backoffMs: 0,
    argsDigest: digestArgs({}),
    ...over,
  };
}

describe('ToolTraceRecorder', () => {
  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new ToolTraceRecorder({ capacity: 0 })).toThrow(/positive integer/);
    expect(() => new ToolTraceRecorder({ capacity: 2.5 })).toThrow(/positive integer/);
  });

  it('records one span when a handle is completed twice', () => {
    const trace = new ToolTraceRecorder();
    const handle = trace.begin(start());
    expect(handle.complete({ outcome: 'error', errorCode: 'TIMEOUT', errorSlug: 'timeout' })).toBeDefined();
    expect(handle.complete({ outcome: 'success' })).toBeUndefined();
    expect(trace.spans()).toHaveLength(1);
    expect(trace.spans()[0]!.outcome).toBe('error');
    expect(trace.histogramReport().tools[0]!.spans).toBe(1);
  });

  it('keeps only the newest spans, oldest first, when more than its capacity are recorded', () => {
    const trace = new ToolTraceRecorder({ capacity: 3 });
    for (let i = 1; i <= 7; i++) trace.begin(start({ callId: `c${i}` })).complete({ outcome: 'success' });
    expect(trace.size).toBe(3);
    expect(trace.spans().map((s) => s.callId)).toEqual(['c5', 'c6', 'c7']);
    expect(trace.spans({ callId: 'c6' })).toHaveLength(1);
  });

  it('defaults to a buffer of 200 spans', () => {
    const trace = new ToolTraceRecorder();
    for (let i = 0; i < 250; i++) trace.begin(start()).complete({ outcome: 'success' });
    expect(trace.capacity).toBe(200);
    expect(trace.spans()).toHaveLength(200);
  });

  it('measures the duration with its clock and streams spans to listeners until they are disposed', () => {
    const clock = new ManualClock();
    const trace = new ToolTraceRecorder({ now: () => clock.now() });
    const seen: string[] = [];
    const sub = trace.onSpan((s) => seen.push(`${s.toolId}:${s.durationMs}`));
    const handle = trace.begin(start());
    clock.advance(42);
    handle.complete({ outcome: 'success' });
    sub.dispose();
    trace.begin(start()).complete({ outcome: 'success' });
    expect(seen).toEqual(['read_file:42']);
  });

  it('survives a listener that throws', () => {
    const trace = new ToolTraceRecorder();
    trace.onSpan(() => {
      throw new Error('broken observer');
    });
    expect(() => trace.begin(start()).complete({ outcome: 'success' })).not.toThrow();
    expect(trace.size).toBe(1);
  });

  it('reports per tool the latency buckets, percentiles and success rate', () => {
    const clock = new ManualClock();
    const trace = new ToolTraceRecorder({ now: () => clock.now() });
    const durations = [1, 3, 3, 8, 40, 40, 90, 200, 900, 4000];
    durations.forEach((ms, i) => {
      const h = trace.begin(start({ toolId: 'web_fetch' }));
      clock.advance(ms);
      h.complete(i < 8 ? { outcome: 'success' } : { outcome: 'error', errorCode: 'TIMEOUT', errorSlug: 'timeout' });
    });
    trace
      .begin(start({ toolId: 'calculate' }))
      .complete({ outcome: 'cancelled', errorCode: 'EXECUTION_FAILED', errorSlug: 'cancelled' });
    const report = trace.histogramReport();
    expect(report.tools.map((t) => t.toolId)).toEqual(['calculate', 'web_fetch']);
    const web = report.tools[1]!;
    expect(web).toMatchObject({
      spans: 10,
      successes: 8,
      errors: 2,
      cancelled: 0,
      successRate: 0.8,
      minMs: 1,
      maxMs: 4000,
      errorsByCode: { TIMEOUT: 2 },
    });
    expect(web.buckets.reduce((n, b) => n + b.count, 0)).toBe(10);
    expect(web.buckets.find((b) => b.leMs === 50)!.count).toBe(2);
    expect(web.p50Ms).toBeGreaterThan(25);
    expect(web.p50Ms).toBeLessThanOrEqual(50);
    expect(web.p95Ms).toBeGreaterThan(web.p50Ms);
    expect(web.p99Ms).toBeLessThanOrEqual(4000);
    expect(report.tools[0]).toMatchObject({ spans: 1, cancelled: 1, successRate: 0 });
  });

  it('exports the buffered spans as JSON', () => {
    const trace = new ToolTraceRecorder({ capacity: 5 });
    trace.begin(start({ callId: 'x1' })).complete({ outcome: 'success' });
    const exported = JSON.parse(trace.exportJson()) as { capacity: number; spans: Array<{ callId: string }> };
    expect(exported.capacity).toBe(5);
    expect(exported.spans.map((s) => s.callId)).toEqual(['x1']);
  });
});

describe('digestArgs', () => {
  it('never contains the text of the arguments, only kinds, lengths and printable counts', () => {
    const secret = 'sk-live-7f3a9c2e1b';
    const digest = digestArgs({
      apiKey: secret,
      note: 'qxv\tqyvw',
      n: 12.5,
      list: [secret],
      nested: { key: secret },
      flag: false,
      none: null,
    });
    expect(JSON.stringify(digest)).not.toContain(secret);
    expect(JSON.stringify(digest)).not.toContain('qxv');
    expect(digest.fields).toEqual({
      apiKey: { kind: 'string', length: secret.length, printable: secret.length },
      note: { kind: 'string', length: 8, printable: 7 },
      n: { kind: 'number', length: 4 },
      list: { kind: 'array', length: 1 },
      nested: { kind: 'object', length: 1 },
      flag: { kind: 'boolean', length: 5 },
      none: { kind: 'null', length: 4 },
    });
  });

  it('only counts field names the tool does not declare, since a model may put anything in a key', () => {
    const digest = digestArgs({ path: 'a', 'sk-secret-key': 1, other: 2 }, new Set(['path']));
    expect(Object.keys(digest.fields)).toEqual(['path', '(undeclared)']);
    expect(digest.fields['(undeclared)']).toEqual({ kind: 'fields', length: 2 });
  });

  it('treats a field named __proto__ as a name to count, not a prototype', () => {
    const digest = digestArgs(JSON.parse('{"__proto__": {"polluted": true}, "a": "x"}'));
    expect(Object.getPrototypeOf(digest.fields)).toBe(Object.prototype);
    expect(digest.fields['(undeclared)']).toEqual({ kind: 'fields', length: 1 });
  });

  it('digests arguments that are not an object as one whole value', () => {
    expect(digestArgs('hello').fields).toEqual({ '(arguments)': { kind: 'string', length: 5, printable: 5 } });
    expect(digestArgs(undefined)).toEqual({ fields: {}, totalLength: 2 });
    expect(digestArgs([1, 2]).totalLength).toBe(5);
  });

  it('gives the exact length of the JSON form for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonLength(value, 0)).toBe(JSON.stringify(value).length);
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
          expect(digestArgs(value).totalLength).toBe(JSON.stringify(value).length);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('gives the exact JSON length of strings with escapes, control characters and lone surrogates', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: fc.integer({ min: 0, max: 0x24 }).map((c) => String.fromCharCode(c)) }),
        (a, b) => {
          expect(jsonLength(a, 0)).toBe(JSON.stringify(a).length);
          expect(jsonLength(b, 0)).toBe(JSON.stringify(b).length);
        },
      ),
    );
    expect(jsonLength('\ud800x\udc00', 0)).toBe(JSON.stringify('\ud800x\udc00').length);
  });

  it('measures a cyclic value without hanging', () => {
    const cyclic: Record<string, unknown> = { a: 'x' };
    cyclic.self = cyclic;
    expect(digestArgs(cyclic).totalLength).toBeGreaterThan(0);
  });
});

describe('errorSlug', () => {
  const err = (code: ToolError['code'], message: string, data?: Record<string, unknown>): ToolError =>
    failure(code, message, data ? { data } : {}).error;

  it('never includes words that occur in the arguments', () => {
    const args = { token: 'hunter2 sk-SECRET' };
    const slug = errorSlug(
      err('EXECUTION_FAILED', "Tool 'http_request' failed: bad credentials hunter2 sk-SECRET rejected"),
      args,
    );
    expect(slug).toBe('bad-credentials-rejected');
  });

  it('cuts the message at the first quote, where quoted argument text usually starts', () => {
    expect(
      errorSlug(
        err(
          'EXECUTION_FAILED',
          "Tool 'read_file' failed: ENOENT: no such file or directory, open '/home/me/secret.txt'",
        ),
      ),
    ).toBe('enoent-no-such-file');
  });

  it('names refusals by their code', () => {
    expect(errorSlug(err('TIMEOUT', 'did not finish'))).toBe('timeout');
    expect(errorSlug(err('CIRCUIT_OPEN', 'paused'))).toBe('circuit-open');
    expect(errorSlug(err('RATE_LIMITED', 'slow down'))).toBe('rate-limited');
    expect(errorSlug(err('INVALID_ARGUMENT', 'Invalid arguments: missing "path"'))).toBe('invalid-argument');
  });

  it('uses a slug a stage or a tool declared, when it is a safe slug', () => {
    expect(errorSlug(err('EXECUTION_FAILED', 'x', { slug: 'device-offline' }))).toBe('device-offline');
    expect(errorSlug(err('EXECUTION_FAILED', 'gone away', { slug: 'Not A Slug!' }))).toBe('gone-away');
  });

  it('falls back to the code when the message has no usable words', () => {
    expect(errorSlug(err('EXECUTION_FAILED', "Tool 'x' failed: 'quoted only'"))).toBe('execution-failed');
    expect(errorSlug(err('UNKNOWN', '!!!'))).toBe('unknown');
  });
});
