/**
 * Rule (docs/architecture.md#shortcuts, ShortcutSuggester): from trace spans, adjacent successful
 * tool pairs within a session (by start time, final attempt of each call, composite tools left out)
 * seen at least 3 times are suggested, most frequent first, with counts; each carries a draft that
 * validates as it is; pairs already inside a defined shortcut are not suggested again.
 */
import { describe, expect, it } from 'vitest';
import type { ArgsDigest, SpanOutcome, TraceSpan } from '../../tools/core/trace-span';
import { type ShortcutDefinition, suggestShortcuts, validateShortcut } from '../../tools/orchestration';
import { makeKit } from './fixtures';

let clock = 0;
function span(
  toolId: string,
  opts: {
    session?: string;
    outcome?: SpanOutcome;
    callId?: string;
    attempt?: number;
    fields?: ArgsDigest['fields'];
  } = {},
): TraceSpan {
  clock += 10;
  const callId = opts.callId ?? `c${clock}`;
  return {
    spanId: `s${clock}`,
    callId,
    toolId,
    sessionId: opts.session ?? 's1',
    requesterKind: 'mcp',
    attempt: opts.attempt ?? 1,
    startedAt: clock,
    durationMs: 5,
    outcome: opts.outcome ?? 'success',
    backoffMs: 0,
    argsDigest: { fields: opts.fields ?? {}, totalLength: 2 },
  };
}

function repeat(times: number, make: () => TraceSpan[]): TraceSpan[] {
  return Array.from({ length: times }, make).flat();
}

describe('ShortcutSuggester leaves out what is not a repeated successful pair', () => {
  it('suggests nothing for a pair seen only twice', () => {
    expect(suggestShortcuts(repeat(2, () => [span('app_launch'), span('ui_tap')]))).toEqual([]);
  });

  it('does not pair calls when one of them failed', () => {
    const spans = repeat(3, () => [span('app_launch'), span('ui_tap', { outcome: 'error' })]);
    expect(suggestShortcuts(spans)).toEqual([]);
  });

  it('does not pair calls across sessions', () => {
    const spans = repeat(3, () => [span('app_launch', { session: 'a' }), span('ui_tap', { session: 'b' })]);
    expect(suggestShortcuts(spans)).toEqual([]);
  });

  it('counts only the final attempt of a retried call', () => {
    // The first attempt of each ui_tap failed, the retry succeeded: the call counts as a success.
    const spans = repeat(3, () => {
      const launch = span('app_launch');
      const first = span('ui_tap', { outcome: 'error', callId: `tap${clock}` });
      const retry = span('ui_tap', { callId: first.callId, attempt: 2 });
      return [launch, first, retry];
    });
    expect(suggestShortcuts(spans).map((s) => [s.tools, s.count])).toEqual([[['app_launch', 'ui_tap'], 3]]);
  });

  it('leaves out composite tools but keeps the steps they ran', () => {
    const spans = repeat(3, () => [
      span('tool_batch_run'),
      span('app_launch'),
      span('ui_tap'),
      span('shortcut.mine'),
      span('shortcut_run'),
    ]);
    expect(suggestShortcuts(spans).map((s) => s.tools)).toEqual([['app_launch', 'ui_tap']]);
  });

  it('does not suggest a pair a defined shortcut already contains', () => {
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

describe('ShortcutSuggester counts pairs', () => {
  it('counts adjacent pairs, most frequent first (ties by name), ordered by start time whatever the input order', () => {
    // launch,tap ×4 then dump,swipe ×3: launch→tap 4, tap→launch 3, tap→dump 1, dump→swipe 3, swipe→dump 2.
    const spans = [
      ...repeat(4, () => [span('app_launch'), span('ui_tap')]),
      ...repeat(3, () => [span('ui_dump'), span('ui_swipe')]),
    ];
    expect(suggestShortcuts([...spans].reverse()).map((s) => [s.tools, s.count])).toEqual([
      [['app_launch', 'ui_tap'], 4],
      [['ui_dump', 'ui_swipe'], 3],
      [['ui_tap', 'app_launch'], 3],
    ]);
  });

  it('honours minCount and limit', () => {
    const spans = [...repeat(5, () => [span('app_launch'), span('ui_tap'), span('get_time')])];
    expect(suggestShortcuts(spans, { minCount: 5 }).map((s) => s.count)).toEqual([5, 5]);
    expect(suggestShortcuts(spans, { limit: 1 })).toHaveLength(1);
  });
});

describe('ShortcutSuggester drafts', () => {
  it('drafts a definition with a parameter per scalar argument field that validates as it is', () => {
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
      description: 'Calls echo_text, then record_args (seen 3 times in a row).',
      params: [
        { name: 'text', type: 'string', description: 'text for echo_text' },
        { name: 'count', type: 'number', description: 'count for echo_text' },
        { name: 'text_1', type: 'string', description: 'text for record_args' },
        { name: 'dry_run', type: 'boolean', description: 'dry-run for record_args' },
      ],
      steps: [
        { tool: 'echo_text', args: { text: '{text}', count: '{count}' } },
        { tool: 'record_args', args: { text: '{text_1}', 'dry-run': '{dry_run}' } },
      ],
    });
    const kit = makeKit();
    expect(validateShortcut(suggestion?.draft, kit.registry).ok).toBe(true);
  });
});
