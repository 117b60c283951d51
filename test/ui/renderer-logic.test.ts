/**
 * Rule: what the UI computes on its own reads the host's figures as they are meant: calls by how
 * they ended, only tools whose runs fail as failing, gaps where no call ran, refusals outside the
 * run-time histogram, breakers that never tripped hidden unless asked for, timeline segments that
 * match the recorded transitions, correct plurals; span lists stay capped, newest first and free of
 * duplicates; a tool's real JSON Schema becomes a form whose values are the arguments as typed;
 * client configurations quote what a shell would split.
 */
import { describe, expect, it } from 'vitest';
import type { Span } from '../../shared/contract';
import { utilityTools } from '../../tools/utility';
import { usageFromSpans } from '../../tools/host/usage-report';
import { clientConfigs, shellWord } from '../../renderer/src/pages/overview/client-configs';
import {
  buildArgs,
  fieldsFromSchema,
  fitsFields,
  initialValues,
} from '../../renderer/src/pages/tools/schema-form-model';
import { fetchIntoList, mergeFetchedSpans, prependSpans, spanMatches } from '../../renderer/src/state/span-list';
import { failingTools, sumCounts, totalPerMinute } from '../../renderer/src/pages/overview/activity';
import { describeCounts, plural } from '../../renderer/src/components/call-classes-view';
import { formatCountdown, timeLeft } from '../../renderer/src/components/format';
import { NOT_RUN_TITLE, attemptLabel } from '../../renderer/src/pages/traces/attempt-label';
import { successSeries } from '../../renderer/src/pages/latency/SuccessRateChart';
import { trimmedBuckets } from '../../renderer/src/pages/latency/HistogramChart';
import { neverTripped } from '../../renderer/src/pages/breakers/BreakersPage';
import { segmentsOf } from '../../renderer/src/pages/breakers/timeline-segments';
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

describe('activity the Overview draws from usage', () => {
  const stats = usageFromSpans(
    [
      span(1, { toolId: 'calculate', outcome: 'error', errorCode: 'INVALID_ARGUMENT', attempt: 0 }),
      span(2, {
        toolId: 'delete_file',
        outcome: 'error',
        errorCode: 'PERMISSION_DENIED',
        errorSlug: 'approval-denied',
        decidedBy: 'person',
        attempt: 0,
      }),
      span(3, { toolId: 'web_fetch', outcome: 'error', errorCode: 'CIRCUIT_OPEN', attempt: 0 }),
      span(4, {
        toolId: 'web_fetch',
        outcome: 'error',
        errorCode: 'EXECUTION_FAILED',
        errorText: 'connect ECONNREFUSED ‹url›',
      }),
      span(5, {
        toolId: 'web_fetch',
        outcome: 'error',
        errorCode: 'EXECUTION_FAILED',
        errorText: 'connect ECONNREFUSED ‹url› (again)',
        attempt: 2,
        callId: 'c4',
      }),
      span(6, { toolId: 'uuid_generate', outcome: 'success' }),
    ],
    NOW,
  );

  it('sums calls per minute by how they ended', () => {
    const minutes = totalPerMinute(stats);
    const total = sumCounts(minutes);
    expect(minutes.reduce((n, m) => n + m.calls, 0)).toBe(5);
    expect(total).toEqual({
      succeeded: 1,
      toolFailed: 1,
      callerMistake: 1,
      denied: 1,
      unanswered: 0,
      policyRefused: 0,
      refused: 1,
      cancelled: 0,
    });
    expect(describeCounts(total)).toBe(
      '1 succeeded, 1 tool failure, 1 caller mistake, 1 denied by a person, ' +
        '1 refused (breaker, limiter or environment)',
    );
  });

  it("counts as denied by a person only a person's denial: a policy's refusal and an unanswered card are apart", () => {
    const denials = usageFromSpans(
      [
        span(1, {
          toolId: 'delete_file',
          outcome: 'error',
          errorCode: 'PERMISSION_DENIED',
          errorSlug: 'approval-denied',
          decidedBy: 'person',
          attempt: 0,
        }),
        span(2, {
          toolId: 'shell_execute',
          outcome: 'error',
          errorCode: 'PERMISSION_DENIED',
          errorSlug: 'shell-denied',
          decidedBy: 'person',
        }),
        span(3, {
          toolId: 'read_file',
          outcome: 'error',
          errorCode: 'PERMISSION_DENIED',
          errorSlug: 'path-escapes-workspace',
        }),
        span(4, {
          toolId: 'shell_execute',
          outcome: 'error',
          errorCode: 'PERMISSION_DENIED',
          errorSlug: 'shell-refused',
        }),
        span(5, { toolId: 'read_file', outcome: 'error', errorCode: 'PERMISSION_DENIED' }),
        span(6, {
          toolId: 'delete_file',
          outcome: 'error',
          errorCode: 'PERMISSION_DENIED',
          errorSlug: 'approval-rule-denied',
          decidedBy: 'rule',
          attempt: 0,
        }),
        span(7, {
          toolId: 'delete_file',
          outcome: 'error',
          errorCode: 'PERMISSION_DENIED',
          errorSlug: 'approval-timeout',
          decidedBy: 'timeout',
          attempt: 0,
        }),
        span(8, {
          toolId: 'shell_execute',
          outcome: 'error',
          errorCode: 'PERMISSION_DENIED',
          errorSlug: 'shell-unanswered',
          decidedBy: 'timeout',
        }),
      ],
      NOW,
    );
    const total = sumCounts(totalPerMinute(denials));
    expect(total).toMatchObject({ denied: 2, policyRefused: 4, unanswered: 2, toolFailed: 0, refused: 0 });
    expect(describeCounts(total)).toBe('2 denied by a person, 2 unanswered approvals, 4 refused by policy');
  });

  it('lists as failing only the tool whose runs failed, with its last real error', () => {
    // The calls were made 24 to 25 minutes before NOW: failing a minute after them, not any more at NOW.
    expect(failingTools(stats, [], NOW)).toEqual([]);
    const failing = failingTools(stats, [], NOW - 24 * 60_000);
    expect(failing.map((f) => f.toolId)).toEqual(['web_fetch']);
    expect(failing[0]?.lastError).toMatchObject({
      code: 'EXECUTION_FAILED',
      message: 'connect ECONNREFUSED ‹url› (again)',
      callId: 'c4',
    });
  });

  it('says "1 call", not "1 calls"', () => {
    expect(plural(1, 'call')).toBe('1 call');
    expect(plural(2, 'call')).toBe('2 calls');
    expect(plural(1, 'retry', 'retries')).toBe('1 retry');
  });
});

describe("the Latency page's charts", () => {
  it('leave a gap in the success line for a minute in which the tool ran nothing', () => {
    const perMinute = usageFromSpans(
      [
        span(1, { toolId: 'calculate', startedAt: NOW - 5 * 60_000 }),
        span(2, { toolId: 'calculate', startedAt: NOW - 60_000, outcome: 'error', errorCode: 'TIMEOUT' }),
      ],
      NOW,
    )[0]!.perMinute;
    const series = successSeries(perMinute);
    expect(series.filter((p) => p.rate !== null).map((p) => p.rate)).toEqual([100, 0]);
    expect(series.at(-3)?.rate).toBeNull();
    expect(series.at(-3)?.calls).toBe(0);
  });

  it('give a refusal no share of the run-time histogram', () => {
    const [s] = usageFromSpans(
      [
        span(1, { toolId: 'calculate', durationMs: 0.1, outcome: 'error', errorCode: 'CIRCUIT_OPEN', attempt: 0 }),
        span(2, { toolId: 'calculate', durationMs: 40 }),
      ],
      NOW,
    );
    expect(trimmedBuckets(s!.buckets).find((b) => b.label === '≤ 1 ms')?.count ?? 0).toBe(0);
    expect(s!.buckets.reduce((n, b) => n + b.count, 0)).toBe(1);
  });
});

describe('the Breakers page', () => {
  const open = { toolId: 't', from: 'CLOSED', to: 'OPEN', at: 1_000, cause: 'five failures' } as const;
  const half = { ...open, from: 'OPEN', to: 'HALF_OPEN', at: 31_000, cause: 'cooldown of 30 s elapsed' } as const;
  const closed = { ...open, from: 'HALF_OPEN', to: 'CLOSED', at: 90_000, cause: 'probe succeeded' } as const;

  it('hides a breaker that counted failures but never opened unless asked to show those', () => {
    expect(neverTripped({ state: 'CLOSED', transitions: [] })).toBe(true);
    expect(neverTripped({ state: 'CLOSED', transitions: [open, half, closed] })).toBe(false);
    expect(neverTripped({ state: 'OPEN', transitions: [] })).toBe(false);
  });

  it('draws one segment per recorded transition, starting and ending where they do', () => {
    const segments = segmentsOf({ state: 'CLOSED', transitions: [closed, open, half] }, 0, 120_000);
    expect(segments).toEqual([
      { state: 'CLOSED', from: 0, to: 1_000 },
      { state: 'OPEN', from: 1_000, to: 31_000 },
      { state: 'HALF_OPEN', from: 31_000, to: 90_000 },
      { state: 'CLOSED', from: 90_000, to: 120_000 },
    ]);
  });
});

describe('Try it from a call', () => {
  const calculate = utilityTools().find((t) => t.id === 'calculate')!;
  const fields = fieldsFromSchema(calculate.inputSchema);

  it('puts arguments into the fields when they come back unchanged, else asks for raw JSON', () => {
    expect(fitsFields(fields, { expression: 'x * 2', variables: { x: 21 }, precision: 4 })).toBe(true);
    expect(fitsFields(fields, { expression: 'x', extra: 1 })).toBe(false);
    expect(fitsFields(fields, { expression: 12 })).toBe(false);
  });
});

describe('span lists', () => {
  it('drops a span it already has, puts the newest first and keeps at most the cap', () => {
    const list = [span(3), span(2), span(1)];
    const next = prependSpans(list, [span(3), span(4), span(5)], 4);
    expect(next.map((s) => s.spanId)).toEqual(['s5', 's4', 's3', 's2']);
  });

  it('keeps, when a fetch answers, the spans that streamed in while it was on its way and the older ones', () => {
    // The fetch ran on the host before s5 and s6 were recorded, with a limit that leaves out s1.
    const held = [span(6), span(5), span(4), span(1)];
    const fetched = [span(4), span(3), span(2)];
    expect(mergeFetchedSpans(held, fetched, 10).map((s) => s.spanId)).toEqual(['s6', 's5', 's4', 's3', 's2', 's1']);
    expect(mergeFetchedSpans(held, fetched, 3).map((s) => s.spanId)).toEqual(['s6', 's5', 's4']);
    expect(mergeFetchedSpans([], fetched, 2).map((s) => s.spanId)).toEqual(['s4', 's3']);
  });

  it('keeps the spans streamed in while a fetch was on its way', async () => {
    let held = [span(2)];
    let answer!: (spans: ReturnType<typeof span>[]) => void;
    const fetching = fetchIntoList(
      () => new Promise((resolve) => (answer = resolve)),
      () => held,
      10,
    );
    held = [span(5), span(2)]; // streamed in after the fetch left
    answer([span(3), span(2)]);
    expect((await fetching).map((s) => s.spanId)).toEqual(['s5', 's3', 's2']);
  });

  it('refetches a list that holds spans with the cap, so a gap in the live stream leaves no hole', async () => {
    // The store holds s1…s20; the page held s1…s3 when its stream dropped. The first fetch's limit
    // is 5: a refetch that asked for 5 would show s16…s20 beside s1…s3 with s4…s15 missing.
    const store = Array.from({ length: 20 }, (_, i) => span(20 - i));
    const asked: (number | undefined)[] = [];
    const fetch = async (limit?: number) => (asked.push(limit), store.slice(0, limit ?? 5));
    const refetched = await fetchIntoList(fetch, () => [span(3), span(2), span(1)], 10);
    expect(refetched.map((s) => s.spanId)).toEqual(store.slice(0, 10).map((s) => s.spanId));
    // A list that holds nothing yet (the page opening) asks for the filter's own number.
    expect((await fetchIntoList(fetch, () => undefined, 10)).length).toBe(5);
    expect(asked).toEqual([10, undefined]);
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

describe("an approval card's countdown", () => {
  const card = { requestedAt: NOW, expiresAt: NOW + 120_000 };

  it('starts at the whole timeout even when the last tick is older than the card', () => {
    expect(formatCountdown(timeLeft(card, NOW - 900))).toBe('2:00');
    expect(formatCountdown(timeLeft(card, NOW))).toBe('2:00');
  });

  it('counts down from there', () => {
    expect(formatCountdown(timeLeft(card, NOW + 60_500))).toBe('1:00');
    expect(timeLeft(card, NOW + 121_000)).toBeLessThan(0);
  });
});

describe("a span's attempt in the traces", () => {
  it('reads "not run" for a call stopped before its first attempt, and the number otherwise', () => {
    expect(attemptLabel(0)).toBe('not run');
    expect(NOT_RUN_TITLE).toMatch(/^Not run: refused before the first attempt/);
    expect(attemptLabel(2)).toBe('2');
  });
});
