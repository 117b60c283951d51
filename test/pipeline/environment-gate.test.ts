/**
 * Rule guarded (docs/architecture.md#environment-gate, docs/architecture.md#the-pipeline): a
 * known-bad environment refuses the call with a structured, actionable error (EXECUTION_FAILED,
 * data.gate 'environment', the rule's fix as the hint) and the tool does not run; missing or stale
 * telemetry, or a broken rule, lets it through. A reading still being taken that a rule decides on
 * is waited for, and the gate decides on what it read.
 */
import { describe, expect, it } from 'vitest';
import type { Tool } from '../../tools/core';
import { assemblePipeline, EnvironmentGate, type EnvironmentRule, TelemetryStore } from '../../tools/core/pipeline';
import { ToolTraceRecorder } from '../../tools/core/trace';
import { fixtureTool, registryOf } from './fixtures';
import { ManualClock } from '../support/manual-clock';

const keyboardRule: EnvironmentRule = {
  id: 'keyboard-shown',
  appliesTo: (tool) => tool.id === 'input_text',
  check: (read) =>
    read('ime.shown') === false
      ? {
          message: 'the on-screen keyboard is not shown.',
          hint: 'Open the input field first (tap it with ui_tap), then call input_text again.',
        }
      : undefined,
};

function setup(rules: EnvironmentRule[] = [keyboardRule], maxAgeMs?: number) {
  const clock = new ManualClock();
  const telemetry = new TelemetryStore(clock);
  const gate = new EnvironmentGate({ telemetry, rules, clock, ...(maxAgeMs !== undefined ? { maxAgeMs } : {}) });
  let runs = 0;
  const inputText = fixtureTool('input_text', () => {
    runs++;
    return 'typed';
  });
  const other = fixtureTool('ui_dump', () => 'tree');
  const trace = new ToolTraceRecorder({ now: () => clock.now() });
  const executor = assemblePipeline(registryOf(inputText, other), { environment: gate, clock, trace });
  return { clock, telemetry, gate, executor, trace, inputText, runs: () => runs };
}

describe('EnvironmentGate', () => {
  it('refuses a call the environment is known to make fail, the fix as hint, and does not run the tool', async () => {
    const s = setup();
    s.telemetry.set('ime.shown', false);
    const result = await s.executor.execute({ toolId: 'input_text', args: { text: 'hello' } });
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'EXECUTION_FAILED',
        message: "'input_text' was not run: the on-screen keyboard is not shown.",
        hint: 'Open the input field first (tap it with ui_tap), then call input_text again.',
        data: { gate: 'environment', rule: 'keyboard-shown', slug: 'environment-keyboard-shown' },
      },
    });
    expect(s.runs()).toBe(0);
    expect(s.trace.spans()).toMatchObject([
      { attempt: 0, outcome: 'error', errorCode: 'EXECUTION_FAILED', errorSlug: 'environment-keyboard-shown' },
    ]);
  });

  it('lets the call through when the telemetry is missing (fail-open)', async () => {
    const s = setup();
    expect(await s.executor.execute({ toolId: 'input_text', args: { text: 'hello' } })).toMatchObject({ ok: true });
    expect(s.runs()).toBe(1);
  });

  it('lets the call through when the telemetry is older than 10 s by default (fail-open)', () => {
    const s = setup();
    s.telemetry.set('ime.shown', false);
    s.clock.advance(10_000);
    expect(s.gate.check(s.inputText, {})).toBeDefined();
    s.clock.advance(1);
    expect(s.gate.check(s.inputText, {})).toBeUndefined();
  });

  it('uses a configured maximum age for telemetry', () => {
    const s = setup([keyboardRule], 500);
    s.telemetry.set('ime.shown', false);
    s.clock.advance(501);
    expect(s.gate.check(s.inputText, {})).toBeUndefined();
    s.telemetry.set('ime.shown', false);
    expect(s.gate.check(s.inputText, {})).toBeDefined();
  });

  it('lets the call through when a rule throws or cannot tell whether it applies', async () => {
    const throwing: EnvironmentRule = {
      id: 'broken-check',
      appliesTo: () => true,
      check: () => {
        throw new Error('bug in rule');
      },
    };
    const confused: EnvironmentRule = {
      id: 'broken-applies',
      appliesTo: () => {
        throw new Error('bug in rule');
      },
      check: () => ({ message: 'never', hint: 'never' }),
    };
    const s = setup([throwing, confused]);
    expect(await s.executor.execute({ toolId: 'input_text', args: { text: 'x' } })).toMatchObject({ ok: true });
  });

  it('only applies rules to the tools they name', async () => {
    const s = setup();
    s.telemetry.set('ime.shown', false);
    expect(await s.executor.execute({ toolId: 'ui_dump', args: { text: 'x' } })).toMatchObject({ ok: true });
  });

  it('passes the raw arguments to the rule, so a rule can judge the call', () => {
    const seen: unknown[] = [];
    const s = setup([{ id: 'spy', appliesTo: () => true, check: (_read, args) => void seen.push(args) }]);
    s.gate.check(s.inputText, { text: 'abc' });
    expect(seen).toEqual([{ text: 'abc' }]);
  });

  it('starts and stops applying a rule added later', () => {
    const s = setup([]);
    s.telemetry.set('ime.shown', false);
    expect(s.gate.check(s.inputText, {})).toBeUndefined();
    const handle = s.gate.addRule(keyboardRule);
    expect(s.gate.check(s.inputText, {})).toBeDefined();
    handle.dispose();
    expect(s.gate.check(s.inputText, {})).toBeUndefined();
  });

  it('waits for a reading in flight that a rule decides on, and decides on what it read', async () => {
    let finish: () => void = () => undefined;
    const reading = new Promise<void>((r) => (finish = r));
    const s = setup([{ ...keyboardRule, pending: () => reading }]);
    s.telemetry.set('ime.shown', true);
    const call = s.executor.execute({ toolId: 'input_text', args: { text: 'hello' } });
    await new Promise((r) => setImmediate(r));
    expect(s.runs()).toBe(0);
    // What the read finds is what the gate decides on, not the reading from before it.
    s.telemetry.set('ime.shown', false);
    finish();
    expect(await call).toMatchObject({ ok: false, error: { data: { rule: 'keyboard-shown' } } });
    expect(s.runs()).toBe(0);
  });

  it('fails open when the reading in flight fails, and waits for nothing when a rule has none', async () => {
    const failing = setup([{ ...keyboardRule, pending: () => Promise.reject(new Error('link dropped')) }]);
    expect(await failing.executor.execute({ toolId: 'input_text', args: { text: 'a' } })).toMatchObject({ ok: true });
    const idle = setup([{ ...keyboardRule, pending: () => undefined }]);
    expect(idle.gate.pendingFor(idle.inputText, {})).toBeUndefined();
    expect(await idle.executor.execute({ toolId: 'input_text', args: { text: 'a' } })).toMatchObject({ ok: true });
  });

  it('reports the first rule that objects', () => {
    const second: EnvironmentRule = {
      id: 'device-online',
      appliesTo: (t: Tool) => t.id === 'input_text',
      check: () => ({ message: 'the device is offline.', hint: 'Reconnect it.' }),
    };
    const s = setup([keyboardRule, second]);
    s.telemetry.set('ime.shown', true);
    expect(s.gate.check(s.inputText, {})?.error.data).toMatchObject({ rule: 'device-online' });
  });
});
