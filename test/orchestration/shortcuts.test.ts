/**
 * Rule (docs/architecture.md#shortcuts): a defined shortcut is a first-class tool at once and after
 * a restart (same store, new registry); parameters are substituted JSON-aware (strings escaped
 * inside text, numbers/booleans bare as whole values, the arguments always valid JSON); its risk is
 * its worst step's risk and its hints are derived from its steps; preconditions refuse a known-bad
 * environment and let an unknown one through; shortcut_run and shortcut_list reach them by id.
 */
import { describe, expect, it } from 'vitest';
import type { TraceSpan } from '../../tools/core/trace-span';
import { InMemoryShortcutStore, type ShortcutDefinition, loadShortcuts } from '../../tools/orchestration';
import { errorOf, makeKit, structuredOf } from './fixtures';

const greet: ShortcutDefinition = {
  id: 'shortcut.greet',
  description: 'Greets someone.',
  params: [{ name: 'who', type: 'string', description: 'Whom to greet.' }],
  steps: [
    { tool: 'echo_text', args: { text: 'hello {who}' } },
    { tool: 'record_args', args: { greeting: '{0}', who: '{who}' } },
  ],
};

const typed: ShortcutDefinition = {
  id: 'shortcut.typed',
  description: 'Passes typed parameters.',
  params: [
    { name: 'label', type: 'string', description: 'A label.' },
    { name: 'count', type: 'number', description: 'A count.' },
    { name: 'on', type: 'boolean', description: 'A switch.' },
    { name: 'serial', type: 'string', description: 'Optional device.', required: false },
    { name: 'mode', type: 'string', description: 'A mode.', default: 'fast' },
  ],
  steps: [
    {
      tool: 'record_args',
      args: {
        label: '{label}',
        count: '{count}',
        on: '{on}',
        serial: '{serial}',
        text: '{label} x{count} ({on}) [{serial}] {mode}',
        list: ['{count}', '{serial}'],
      },
    },
  ],
};

describe('shortcut preconditions and parameters refuse bad calls', () => {
  it('refuses a run when telemetry shows a different value, and runs no step', async () => {
    const kit = makeKit({ telemetry: (key) => (key === 'device.emulator-5554.online' ? false : undefined) });
    await kit.run('shortcut_define', {
      ...greet,
      preconditions: [{ key: 'device.emulator-5554.online', equals: true, hint: 'Plug the phone in.' }],
    });
    const error = errorOf(await kit.run('shortcut.greet', { who: 'Ann' }));
    expect(error.message).toContain('needs device.emulator-5554.online = true, but it is false');
    expect(error.hint).toBe('Plug the phone in.');
    expect(kit.calls).toHaveLength(0);
  });

  it('lets a run through when the telemetry value is unknown (fail-open), or when the reader throws', async () => {
    const kit = makeKit({
      telemetry: (key) => {
        if (key === 'broken') throw new Error('reader down');
        return undefined;
      },
    });
    await kit.run('shortcut_define', {
      ...greet,
      preconditions: [
        { key: 'device.emulator-5554.online', equals: true },
        { key: 'broken', equals: 1 },
      ],
    });
    expect((await kit.run('shortcut.greet', { who: 'Ann' })).ok).toBe(true);
  });

  it('refuses a missing or mistyped parameter, naming it', async () => {
    const kit = makeKit();
    await kit.run('shortcut_define', typed);
    const missing = errorOf(await kit.run('shortcut.typed', { count: 1, on: true }));
    expect(missing.code).toBe('INVALID_ARGUMENT');
    expect(missing.data?.fields).toEqual(['label']);
    const mistyped = errorOf(await kit.run('shortcut.typed', { label: 'a', count: 'one', on: true }));
    expect(mistyped.data?.fields).toEqual(['count']);
    expect(kit.calls).toHaveLength(0);
  });

  it('shortcut_run refuses an id outside the namespace and suggests near shortcut ids for an unknown one', async () => {
    const kit = makeKit();
    await kit.run('shortcut_define', greet);
    expect(errorOf(await kit.run('shortcut_run', { id: 'echo_text', params: { text: 'x' } })).code).toBe(
      'INVALID_ARGUMENT',
    );
    const unknown = errorOf(await kit.run('shortcut_run', { id: 'shortcut.gret' }));
    expect(unknown.code).toBe('NOT_FOUND');
    expect(unknown.data?.suggestions).toEqual(['shortcut.greet']);
    expect(kit.calls).toHaveLength(0);
  });

  it('does not register a shortcut the store failed to save', async () => {
    const store = new InMemoryShortcutStore();
    store.save = () => {
      throw new Error('disk full');
    };
    const kit = makeKit({ store });
    const error = errorOf(await kit.run('shortcut_define', greet));
    expect(error.message).toContain('disk full');
    expect(kit.registry.has('shortcut.greet')).toBe(false);
  });
});

describe('defined shortcuts are first-class tools', () => {
  it('is callable through the executor right after shortcut_define, each step a nested call', async () => {
    const kit = makeKit();
    const defined = structuredOf(await kit.run('shortcut_define', greet)) as { defined: string; replaced: boolean };
    expect(defined).toMatchObject({ defined: 'shortcut.greet', replaced: false });
    const result = await kit.run('shortcut.greet', { who: 'Ann' }, { callId: 'sc-1' });
    expect(result.ok).toBe(true);
    expect(kit.calls.map((c) => c.tool)).toEqual(['echo_text', 'record_args']);
    expect(kit.calls[1]?.args).toEqual({ greeting: 'hello Ann', who: 'Ann' });
    expect(kit.calls[0]?.requester).toEqual({
      kind: 'shortcut',
      id: 'sc-1',
      label: 'shortcut.greet',
      step: 1,
      via: { kind: 'internal' },
    });
  });

  it('survives a restart: a new registry loads it from the same store', async () => {
    const store = new InMemoryShortcutStore();
    const before = makeKit({ store });
    await before.run('shortcut_define', greet);

    const after = makeKit({ store });
    expect(after.registry.has('shortcut.greet')).toBe(false);
    const report = loadShortcuts(store, after.registry);
    expect(report).toEqual({ loaded: ['shortcut.greet'], skipped: [] });
    expect((await after.run('shortcut.greet', { who: 'Bo' })).ok).toBe(true);
    expect(after.calls[1]?.args).toEqual({ greeting: 'hello Bo', who: 'Bo' });
  });

  it('skips, and reports, a stored shortcut whose step tool no longer exists', () => {
    const store = new InMemoryShortcutStore();
    store.save({ ...greet, steps: [{ tool: 'gone_tool', args: { text: '{who}' } }] });
    const kit = makeKit({ store });
    const report = loadShortcuts(store, kit.registry);
    expect(report.loaded).toEqual([]);
    expect(report.skipped[0]?.id).toBe('shortcut.greet');
    expect(report.skipped[0]?.reason).toContain("unknown tool 'gone_tool'");
  });

  it('redefining an id replaces the tool and the stored definition', async () => {
    const kit = makeKit();
    await kit.run('shortcut_define', greet);
    const again = structuredOf(
      await kit.run('shortcut_define', { ...greet, steps: [{ tool: 'echo_text', args: { text: 'hi {who}' } }] }),
    ) as { replaced: boolean };
    expect(again.replaced).toBe(true);
    expect(kit.store.list()).toHaveLength(1);
    const result = await kit.run('shortcut.greet', { who: 'Cy' });
    expect(kit.calls.map((c) => c.args)).toEqual([{ text: 'hi Cy' }]);
    expect(result.ok).toBe(true);
  });

  it('shortcut_run runs one by id with its parameters', async () => {
    const kit = makeKit();
    await kit.run('shortcut_define', greet);
    const result = await kit.run('shortcut_run', { id: 'shortcut.greet', params: { who: 'Di' } });
    expect(result.ok).toBe(true);
    expect(kit.calls[1]?.args).toEqual({ greeting: 'hello Di', who: 'Di' });
  });

  it('stops at the first failing step like a batch', async () => {
    const kit = makeKit();
    await kit.run('shortcut_define', {
      id: 'shortcut.breaks',
      description: 'Fails in the middle.',
      params: [],
      steps: [{ tool: 'get_time' }, { tool: 'fail_step' }, { tool: 'get_time' }],
    });
    const error = errorOf(await kit.run('shortcut.breaks', {}));
    expect(error.code).toBe('PERMISSION_DENIED');
    expect(error.message).toContain('[2] get_time: Not executed: an earlier action in this turn failed.');
    expect(kit.calls.map((c) => c.tool)).toEqual(['get_time', 'fail_step']);
  });
});

describe('JSON-aware parameter substitution', () => {
  it('escapes strings inside text, inserts numbers and booleans bare, and always yields valid JSON', async () => {
    const kit = makeKit();
    await kit.run('shortcut_define', typed);
    const label = 'say "hi" \\ back\nslash \u00e9\u4e2d\ud83d\ude00 {0} {count}';
    const result = await kit.run('shortcut.typed', { label, count: 3, on: false });
    expect(result.ok).toBe(true);
    const args = kit.calls[0]?.args ?? {};
    expect(args).toEqual({
      label,
      count: 3,
      on: false,
      text: `${label} x3 (false) [] fast`,
      list: [3],
    });
    expect(JSON.parse(JSON.stringify(args))).toEqual(args);
  });

  it('passes an optional parameter when it is given', async () => {
    const kit = makeKit();
    await kit.run('shortcut_define', typed);
    await kit.run('shortcut.typed', { label: 'l', count: 1.5, on: true, serial: 'emulator-5554', mode: 'slow' });
    expect(kit.calls[0]?.args).toEqual({
      label: 'l',
      count: 1.5,
      on: true,
      serial: 'emulator-5554',
      text: 'l x1.5 (true) [emulator-5554] slow',
      list: [1.5, 'emulator-5554'],
    });
  });
});

describe('shortcut risk and hints come from the steps', () => {
  it('a shortcut containing app_uninstall is HIGH and destructive', async () => {
    const kit = makeKit();
    const defined = structuredOf(
      await kit.run('shortcut_define', {
        id: 'shortcut.clean_reinstall',
        description: 'Removes an app.',
        params: [{ name: 'pkg', type: 'string', description: 'Package.' }],
        steps: [{ tool: 'get_time' }, { tool: 'app_uninstall', args: { package: '{pkg}' } }],
      }),
    ) as { risk: string };
    expect(defined.risk).toBe('HIGH');
    const tool = kit.registry.get('shortcut.clean_reinstall');
    expect(tool?.metadata.risk).toBe('HIGH');
    expect(tool?.metadata.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      sensitiveAction: true,
    });
  });

  it('a shortcut of read-only steps is LOW and read-only', async () => {
    const kit = makeKit();
    await kit.run('shortcut_define', {
      id: 'shortcut.look',
      description: 'Reads.',
      params: [],
      steps: [{ tool: 'get_time' }, { tool: 'echo_text', args: { text: '{0}' } }],
    });
    const tool = kit.registry.get('shortcut.look');
    expect(tool?.metadata.risk).toBe('LOW');
    expect(tool?.metadata.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(tool?.inputSchema).toMatchObject({ type: 'object' });
  });
});

describe('shortcut_list', () => {
  function span(callId: string, toolId: string, startedAt: number): TraceSpan {
    return {
      spanId: `s-${callId}`,
      callId,
      toolId,
      sessionId: 'sess',
      requesterKind: 'mcp',
      attempt: 1,
      startedAt,
      durationMs: 1,
      outcome: 'success',
      backoffMs: 0,
      argsDigest: { fields: { text: { kind: 'string', length: 3 } }, totalLength: 14 },
    };
  }

  it('lists the definitions with their risk, and suggestions mined from the traces', async () => {
    const spans = [0, 1, 2].flatMap((i) => [span(`a${i}`, 'get_time', i * 10), span(`b${i}`, 'echo_text', i * 10 + 1)]);
    const kit = makeKit({ traceSpans: () => spans });
    await kit.run('shortcut_define', greet);
    const listed = structuredOf(await kit.run('shortcut_list', {})) as {
      shortcuts: Array<{ id: string; risk: string; registered: boolean }>;
      suggestions: Array<{ tools: string[]; count: number; draft: ShortcutDefinition }>;
    };
    expect(listed.shortcuts.map((s) => [s.id, s.risk, s.registered])).toEqual([['shortcut.greet', 'LOW', true]]);
    expect(listed.suggestions.map((s) => [s.tools, s.count])).toEqual([[['get_time', 'echo_text'], 3]]);

    // The draft is ready to define as it is.
    const draft = listed.suggestions[0]?.draft;
    expect((await kit.run('shortcut_define', draft)).ok).toBe(true);
    const again = structuredOf(await kit.run('shortcut_list', {})) as { suggestions: unknown[] };
    expect(again.suggestions).toEqual([]);
  });
});
