/**
 * Rule (docs/architecture.md#shortcuts, ShortcutSuggester): per session, calls one right after the
 * other (final attempt of each call, composite tools, shortcut steps and replays left out) are
 * mined for sequences of 2 up to 16 tools; a sequence recurs when all of its calls succeeded,
 * counted without overlaps, and is suggested from 3 recurrences, most frequent first. Never
 * suggested: a tool right after itself, a unit repeated, the seam of a cycle (a rarer rotation), a
 * part that only occurs inside a longer sequence recurring as often, or what a defined shortcut
 * contains. Each suggestion shows its evidence (times, tries, success rate, last seen, sessions)
 * and a draft that validates as it is, with one parameter per argument it fills.
 */
import { describe, expect, it } from 'vitest';
import type { ArgsDigest, SpanOutcome, TraceSpan } from '../../tools/core/trace-span';
import { MAX_GAP_MS, type ShortcutDefinition, suggestShortcuts, validateShortcut } from '../../tools/orchestration';
import { makeKit } from './fixtures';

let clock = 0;
function span(
  toolId: string,
  opts: {
    session?: string;
    outcome?: SpanOutcome;
    callId?: string;
    attempt?: number;
    requesterKind?: string;
    fields?: ArgsDigest['fields'];
    gapMs?: number;
  } = {},
): TraceSpan {
  clock += opts.gapMs ?? 10;
  const callId = opts.callId ?? `c${clock}`;
  return {
    spanId: `s${clock}`,
    callId,
    toolId,
    sessionId: opts.session ?? 's1',
    requesterKind: opts.requesterKind ?? 'mcp',
    attempt: opts.attempt ?? 1,
    startedAt: clock,
    durationMs: 5,
    outcome: opts.outcome ?? 'success',
    ...(opts.outcome === 'error' ? { errorCode: 'EXECUTION_FAILED' as const } : {}),
    backoffMs: 0,
    argsDigest: { fields: opts.fields ?? {}, totalLength: 2 },
  };
}

function repeat(times: number, make: () => TraceSpan[]): TraceSpan[] {
  return Array.from({ length: times }, make).flat();
}

const seqs = (spans: TraceSpan[], options?: Parameters<typeof suggestShortcuts>[1]) =>
  suggestShortcuts(spans, options).map((s) => [s.tools.join(' → '), s.count]);

describe('what is never suggested', () => {
  it('a sequence seen only twice', () => {
    expect(suggestShortcuts(repeat(2, () => [span('app_launch'), span('ui_tap')]))).toEqual([]);
  });

  it('a self-pair, however often a tool is called again and again', () => {
    const spans = [...repeat(6, () => [span('get_device_info')]), ...repeat(6, () => [span('calculate')])];
    expect(suggestShortcuts(spans)).toEqual([]);
  });

  it('calls of which one failed, and calls in different sessions', () => {
    expect(suggestShortcuts(repeat(3, () => [span('app_launch'), span('ui_tap', { outcome: 'error' })]))).toEqual([]);
    expect(
      suggestShortcuts(repeat(3, () => [span('app_launch', { session: 'a' }), span('ui_tap', { session: 'b' })])),
    ).toEqual([]);
  });

  it('calls further apart than the pause that ends a run of work', () => {
    const spans = repeat(3, () => [
      span('app_launch', { gapMs: MAX_GAP_MS * 2 }),
      span('ui_tap', { gapMs: MAX_GAP_MS + 1 }),
    ]);
    expect(suggestShortcuts(spans)).toEqual([]);
  });

  it('the seam of a loop: of a repeated a → b, b → a is not a workflow, nor a → b → a → b', () => {
    const spans = repeat(8, () => [span('ui_dump'), span('ui_tap')]);
    expect(seqs(spans)).toEqual([['ui_dump → ui_tap', 8]]);
  });

  it('a part that only ever occurs inside a longer sequence recurring as often', () => {
    const spans = repeat(4, () => [
      span('app_launch'),
      span('ui_dump'),
      span('ui_tap'),
      span('get_time', { gapMs: 1 }),
    ]);
    const found = seqs(spans);
    expect(found[0]).toEqual(['app_launch → ui_dump → ui_tap → get_time', 4]);
    expect(found.map(([t]) => t)).not.toContain('app_launch → ui_dump');
    expect(found.map(([t]) => t)).not.toContain('ui_dump → ui_tap → get_time');
  });

  it('composite tools, steps a shortcut ran, and replays (the steps a batch ran are kept)', () => {
    const spans = repeat(3, () => [
      span('tool_batch_run'),
      span('app_launch', { requesterKind: 'batch' }),
      span('ui_tap', { requesterKind: 'batch' }),
      span('shortcut.mine'),
      span('get_time', { requesterKind: 'shortcut' }),
      span('ui_swipe', { requesterKind: 'shortcut' }),
      span('shortcut_run'),
      span('ui_dump', { requesterKind: 'replay' }),
    ]);
    expect(suggestShortcuts(spans).map((s) => s.tools)).toEqual([['app_launch', 'ui_tap']]);
  });

  it('what a defined shortcut already contains', () => {
    const spans = repeat(3, () => [span('app_launch'), span('ui_tap')]);
    const defined: ShortcutDefinition[] = [
      {
        id: 'shortcut.x',
        description: 'x',
        params: [],
        steps: [{ tool: 'get_time' }, { tool: 'app_launch' }, { tool: 'ui_tap' }],
      },
    ];
    expect(suggestShortcuts(spans, { defined })).toEqual([]);
  });
});

describe('what is suggested, and how it ranks', () => {
  it('the pair actually repeated, counted once per call whatever the retries', () => {
    const spans = repeat(3, () => {
      const launch = span('app_launch');
      const first = span('ui_tap', { outcome: 'error', callId: `tap${clock}` });
      const retry = span('ui_tap', { callId: first.callId, attempt: 2 });
      return [launch, first, retry];
    });
    expect(seqs(spans)).toEqual([['app_launch → ui_tap', 3]]);
  });

  it('sequences of 3 and more, most frequent first, ordered by start whatever the input order', () => {
    const spans = [
      ...repeat(5, () => [
        span('browser_navigate'),
        span('browser_snapshot'),
        span('browser_click'),
        span('wait', { gapMs: 1 }),
      ]),
      ...repeat(3, () => [span('app_launch', { session: 'phone' }), span('ui_dump', { session: 'phone' })]),
    ];
    expect(seqs([...spans].reverse())).toEqual([
      ['browser_navigate → browser_snapshot → browser_click → wait', 5],
      ['app_launch → ui_dump', 3],
    ]);
  });

  it('honours minCount, limit and the step limit', () => {
    const spans = repeat(5, () => [
      span('app_launch'),
      span('ui_tap'),
      span('get_time'),
      span('ui_dump', { gapMs: 1 }),
    ]);
    expect(seqs(spans, { minCount: 6 })).toEqual([]);
    expect(suggestShortcuts(spans, { limit: 1 })).toHaveLength(1);
    expect(seqs(spans, { maxLength: 2 })[0]).toEqual(['app_launch → ui_tap', 5]);
  });

  it('shows its evidence: times, tries, success rate, sessions and when it was last seen', () => {
    const spans = [
      ...repeat(3, () => [span('app_launch', { session: 'a' }), span('ui_tap', { session: 'a' })]),
      span('app_launch', { session: 'b' }),
      span('ui_tap', { session: 'b', outcome: 'error' }),
    ];
    const lastSuccess = spans[4]!.startedAt;
    const [s] = suggestShortcuts(spans);
    expect(s?.evidence).toEqual({ count: 3, seen: 4, successRate: 0.75, lastSeen: lastSuccess, sessions: 1 });
  });
});

describe('drafts', () => {
  it('validate as they are, with a parameter per scalar field named after the argument it fills', () => {
    const fields = {
      text: { kind: 'string', length: 5 },
      count: { kind: 'number', length: 1 },
      opts: { kind: 'object', length: 20 },
    };
    const spans = repeat(3, () => [
      span('echo_text', { fields }),
      span('record_args', {
        fields: { text: { kind: 'string', length: 2 }, 'dry-run': { kind: 'boolean', length: 4 } },
      }),
    ]);
    const [suggestion] = suggestShortcuts(spans);
    expect(suggestion?.draft).toEqual({
      id: 'shortcut.echo_text_then_record_args',
      description: 'Calls echo_text, then record_args (seen 3 times in this order).',
      params: [
        { name: 'text', type: 'string', description: 'text for echo_text' },
        { name: 'count', type: 'number', description: 'count for echo_text' },
        { name: 'text_record_args', type: 'string', description: 'text for record_args' },
        { name: 'dry_run', type: 'boolean', description: 'dry-run for record_args' },
      ],
      steps: [
        { tool: 'echo_text', args: { text: '{text}', count: '{count}' } },
        { tool: 'record_args', args: { text: '{text_record_args}', 'dry-run': '{dry_run}' } },
      ],
    });
    expect(validateShortcut(suggestion?.draft, makeKit().registry).ok).toBe(true);
  });

  it('share one parameter for a field the steps fill alike (no serial and serial_1)', () => {
    const serial = { serial: { kind: 'string', length: 13 } };
    const spans = repeat(3, () => [span('echo_text', { fields: serial }), span('record_args', { fields: serial })]);
    const [suggestion] = suggestShortcuts(spans);
    expect(suggestion?.draft.params).toEqual([
      { name: 'serial', type: 'string', description: 'serial for echo_text and record_args' },
    ]);
    expect(suggestion?.draft.steps.map((s) => s.args)).toEqual([{ serial: '{serial}' }, { serial: '{serial}' }]);
  });

  it('keep two parameters when the remembered values differ, whatever their lengths', () => {
    const x = { x: { kind: 'number', length: 3 } };
    const spans = repeat(3, () => [span('echo_text', { fields: x }), span('record_args', { fields: x })]);
    const [suggestion] = suggestShortcuts(spans, { sameArgument: () => false });
    expect(suggestion?.draft.params.map((p) => p.name)).toEqual(['x', 'x_record_args']);
  });

  it('name longer sequences after their ends and keep ids unique and valid', () => {
    const spans = [
      ...repeat(3, () => [span('echo_text'), span('big_text'), span('record_args', { gapMs: 1 })]),
      ...repeat(3, () => [
        span('echo_text', { session: 'z' }),
        span('get_time', { session: 'z' }),
        span('record_args', { session: 'z' }),
      ]),
    ];
    const ids = suggestShortcuts(spans).map((s) => s.draft.id);
    expect(ids).toContain('shortcut.echo_text_to_record_args_3_steps');
    expect(ids).toContain('shortcut.echo_text_to_record_args_3_steps_2');
    expect(new Set(ids).size).toBe(ids.length);
  });
});
