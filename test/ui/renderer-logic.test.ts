/**
 * Rule: what the UI computes on its own agrees with the host: usage folded forward span by span
 * equals the host's recomputation from all spans, and a report racing the live stream counts no
 * span twice and drops none; span lists stay capped, newest first and free of
 * duplicates; a tool's real JSON Schema becomes a form whose values are the arguments as typed;
 * client configurations quote what a shell would split.
 */
import { describe, expect, it } from 'vitest';
import type { Span } from '../../shared/contract';
import { utilityTools } from '../../tools/utility';
import { usageFromSpans } from '../../tools/host/usage-report';
import { clientConfigs, shellWord } from '../../renderer/src/pages/overview/client-configs';
import { buildArgs, fieldsFromSchema, initialValues } from '../../renderer/src/pages/tools/schema-form-model';
import { prependSpans, spanMatches } from '../../renderer/src/state/span-list';
import { applySpansToUsage, foldNewSpans } from '../../renderer/src/state/usage-aggregate';
import { applyTransition } from '../../renderer/src/state/breaker-update';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 30);

function span(i: number, over: Partial<Span> = {}): Span {
  const failed = i % 7 === 3;
  return {
    spanId: `s${i}`,
    callId: `c${i}`,
    toolId: ['calculate', 'uuid_generate', 'web_fetch'][i % 3]!,
    sessionId: 'x',
    requesterKind: 'mcp',
    attempt: 1,
    startedAt: NOW - 25 * 60_000 + i * 11_000,
    durationMs: [0.4, 3, 17, 120, 900, 4_000, 70_000][i % 7]!,
    outcome: failed ? 'error' : 'success',
    ...(failed ? { errorCode: 'EXECUTION_FAILED' as const, errorSlug: `boom-${i}` } : {}),
    backoffMs: 0,
    argsDigest: { fields: {}, totalLength: 0 },
    ...over,
  };
}

describe('usage folded forward in the page', () => {
  it('asks for a refetch when the first span of all arrives and there are no bucket bounds to borrow', () => {
    expect(applySpansToUsage([], [span(1)])).toEqual({ stats: [], complete: false });
  });

  it('equals the host recomputing from all spans, including a tool first seen live', () => {
    const all = Array.from({ length: 120 }, (_, i) => span(i));
    const firstPart = all.slice(0, 40).filter((s) => s.toolId !== 'web_fetch');
    const later = [...all.slice(0, 40).filter((s) => s.toolId === 'web_fetch'), ...all.slice(40)];
    const folded = applySpansToUsage(usageFromSpans(firstPart, NOW), later);
    const host = usageFromSpans(all, NOW);
    expect(folded.complete).toBe(true);
    expect(folded.stats.map((s) => s.toolId)).toEqual(host.map((s) => s.toolId));
    for (const [mine, theirs] of folded.stats.map((s, i) => [s, host[i]!] as const)) {
      expect({ ...mine, latencyMs: undefined }).toEqual({ ...theirs, latencyMs: undefined });
      for (const k of ['min', 'max', 'mean', 'p50', 'p95', 'p99'] as const)
        expect(mine.latencyMs[k]).toBeCloseTo(theirs.latencyMs[k], 6);
    }
  });
});

describe('a usage report racing the live stream', () => {
  const all = Array.from({ length: 60 }, (_, i) => span(i));
  const numbered = all.map((s, i) => ({ seq: i + 1, span: s }));
  const hostAt = (n: number) => ({ stats: usageFromSpans(all.slice(0, n), NOW), throughSeq: n });
  const counts = (r: { stats: Array<{ toolId: string; count: number }> }) => r.stats.map((s) => [s.toolId, s.count]);

  it('skips the span events a report already counts, however late they arrive', () => {
    // The report was computed after span 40; events 35–50 are delivered after it landed.
    const folded = foldNewSpans(hostAt(40), numbered.slice(34, 50));
    expect(folded.report.throughSeq).toBe(50);
    expect(counts(folded.report)).toEqual(counts(hostAt(50)));
  });

  it('folds in the spans that streamed while the report was on the way, and only those', () => {
    // Events up to 55 were seen before a report as of span 48 replaced the cache.
    const folded = foldNewSpans(hostAt(48), numbered.slice(0, 55));
    expect(counts(folded.report)).toEqual(counts(hostAt(55)));
  });

  it('returns the same report when every event is already counted', () => {
    const report = hostAt(30);
    expect(foldNewSpans(report, numbered.slice(0, 30)).report).toBe(report);
  });
});

describe('span lists', () => {
  it('drops a span it already has, puts the newest first and keeps at most the cap', () => {
    const list = [span(3), span(2), span(1)];
    const next = prependSpans(list, [span(3), span(4), span(5)], 4);
    expect(next.map((s) => s.spanId)).toEqual(['s5', 's4', 's3', 's2']);
  });

  it('matches a span against every part of the filter', () => {
    const s = span(4, { outcome: 'error', toolId: 'web_fetch' });
    expect(spanMatches({ toolId: 'web_fetch', outcome: 'error', since: s.startedAt }, s)).toBe(true);
    expect(spanMatches({ toolId: 'calculate' }, s)).toBe(false);
    expect(spanMatches({ outcome: 'success' }, s)).toBe(false);
    expect(spanMatches({ since: s.startedAt + 1 }, s)).toBe(false);
    expect(spanMatches({ callId: 'other' }, s)).toBe(false);
  });
});

describe('breaker transitions applied in the page', () => {
  it('moves the state, appends the transition once and clears the cooldown on close', () => {
    const open = { toolId: 't', from: 'CLOSED', to: 'OPEN', at: 1, cause: 'failures' } as const;
    const views = applyTransition(applyTransition([], open), open);
    expect(views).toEqual([
      { toolId: 't', state: 'OPEN', consecutiveFailures: 0, cooldownRemainingMs: 0, transitions: [open] },
    ]);
    const closed = applyTransition([{ ...views[0]!, probeAt: 5, cooldownRemainingMs: 900, consecutiveFailures: 5 }], {
      ...open,
      from: 'HALF_OPEN',
      to: 'CLOSED',
      at: 2,
    });
    expect(closed[0]).toMatchObject({ state: 'CLOSED', cooldownRemainingMs: 0, consecutiveFailures: 0 });
    expect(closed[0]!.probeAt).toBeUndefined();
  });

  it('keeps the state a refetch showed when an older transition event arrives after it', () => {
    const open = { toolId: 't', from: 'CLOSED' as const, to: 'OPEN' as const, at: 1, cause: 'five failures' };
    const probe = { ...open, from: 'OPEN' as const, to: 'HALF_OPEN' as const, at: 2, cause: 'cooldown over' };
    const closed = { ...open, from: 'HALF_OPEN' as const, to: 'CLOSED' as const, at: 3, cause: 'probe succeeded' };
    const refetched = [
      {
        toolId: 't',
        state: 'CLOSED' as const,
        consecutiveFailures: 0,
        cooldownRemainingMs: 0,
        transitions: [open, probe, closed],
      },
    ];
    expect(applyTransition(refetched, probe)).toEqual(refetched);
    const withoutProbe = [{ ...refetched[0]!, transitions: [open, closed] }];
    expect(applyTransition(withoutProbe, probe)).toEqual(refetched);
  });
});

describe('the Try-it form from a real tool schema', () => {
  const calculate = utilityTools().find((t) => t.id === 'calculate')!;
  const fields = fieldsFromSchema(calculate.inputSchema);

  it('refuses JSON that does not parse, naming the field, and sends nothing', () => {
    const values = { ...initialValues(fields), expression: 'x + 1', variables: '{x: 1' };
    expect(buildArgs(fields, values)).toEqual({
      ok: false,
      errors: { variables: expect.stringContaining('Not valid JSON') },
    });
  });

  it('leaves out empty optional fields and passes a missing required one to the pipeline to judge', () => {
    expect(buildArgs(fields, initialValues(fields))).toEqual({ ok: true, args: {} });
  });

  it('marks required fields, keeps descriptions and types the values', () => {
    expect(fields.find((f) => f.name === 'expression')).toMatchObject({
      required: true,
      description: expect.any(String),
    });
    expect(fields.find((f) => f.name === 'precision')?.kind).toBe('integer');
    const built = buildArgs(fields, {
      ...initialValues(fields),
      expression: 'x * 2',
      variables: '{"x": 21}',
      precision: '4',
    });
    expect(built).toEqual({ ok: true, args: { expression: 'x * 2', variables: { x: 21 }, precision: 4 } });
  });
});

describe('client configurations', () => {
  it('quotes a data dir with spaces or quotes as one shell word', () => {
    expect(shellWord("/home/o'neil/Tool gate")).toBe(`'/home/o'\\''neil/Tool gate'`);
    expect(shellWord('/tmp/plain-dir')).toBe('/tmp/plain-dir');
    const stdioBridge = {
      command: 'node',
      args: ['/opt/tool gate/bin/toolgate.cjs', 'mcp-stdio', '--data-dir', '/a b'],
    };
    const stdio = clientConfigs({ mcpUrl: 'http://127.0.0.1:7878/mcp', stdioBridge }).find((c) => c.id === 'stdio');
    expect(stdio?.text).toBe("node '/opt/tool gate/bin/toolgate.cjs' mcp-stdio --data-dir '/a b'");
  });

  it('hands a client’s own token to the stdio bridge in its environment, never in its arguments', () => {
    const stdioBridge = { command: 'node', args: ['/b/toolgate.cjs', 'mcp-stdio', '--data-dir', '/d'] };
    const configs = clientConfigs({ mcpUrl: 'http://127.0.0.1:7878/mcp', stdioBridge }, 'tg_SECRET');
    expect(configs.find((c) => c.id === 'stdio')?.text).toBe(
      'TOOLGATE_TOKEN=tg_SECRET node /b/toolgate.cjs mcp-stdio --data-dir /d',
    );
    const desktop = JSON.parse(configs.find((c) => c.id === 'claude-desktop')?.text ?? '');
    expect(desktop.mcpServers.toolgate).toEqual({ ...stdioBridge, env: { TOOLGATE_TOKEN: 'tg_SECRET' } });
  });

  it('names a placeholder, not a token, in HTTP configs before the person created one', () => {
    const configs = clientConfigs({
      mcpUrl: 'http://127.0.0.1:7878/mcp',
      stdioBridge: { command: 'node', args: [] },
    });
    for (const c of configs.filter((c) => c.needsToken)) expect(c.text).toContain('<create a token for this client>');
    expect(configs.filter((c) => c.needsToken).map((c) => c.id)).toEqual(['cursor', 'claude-code', 'vscode']);
  });

  it('puts the bearer token in the header of every HTTP client', () => {
    const configs = clientConfigs(
      {
        mcpUrl: 'http://127.0.0.1:7878/mcp',
        stdioBridge: { command: 'node', args: ['/b/toolgate.cjs', 'mcp-stdio', '--data-dir', '/d'] },
      },
      'SECRET',
    );
    for (const id of ['cursor', 'claude-code', 'vscode'])
      expect(configs.find((c) => c.id === id)?.text).toContain('Bearer SECRET');
  });
});
