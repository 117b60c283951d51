/**
 * Rule (docs/architecture.md#environment-gate): the environment gate knows the browser from its
 * telemetry (`browser.*`) and refuses, before the tool runs (one span with attempt 0), a call the
 * page's state would make fail: a ref while no page is open, anything on a page a modal dialog
 * blocks (except answering it), a ref while the page still loads a new document. Like the device
 * rules it fails open: a loading state older than the gate's freshness bound is unknown, and the
 * call goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserEnvironmentRules, browserTelemetryReading } from '../../tools/browser';
import { EnvironmentGate, systemClock } from '../../tools/core/pipeline';
import type { ToolRegistry } from '../../tools/core/registry';
import type { ToolResult } from '../../tools/core/result';
import { type Harness, refOf, startHarness } from './harness';

let h: Harness;
let registry: ToolRegistry;

const telemetry = () => ({ read: (key: string) => browserTelemetryReading(h.manager, key) });

// The harness's pipeline has the browser rules in its gate, reading the browser through the host's telemetry.
beforeAll(async () => {
  h = await startHarness();
  registry = h.family.registry;
});
afterAll(async () => h?.close());

const call = (toolId: string, args: Record<string, unknown> = {}) => h.call(toolId, args);

function refusal(result: ToolResult) {
  if (result.ok) throw new Error('expected a refusal');
  return result.error;
}

/** The spans of the last call made. */
function lastCallSpans() {
  const spans = h.family.pipeline.trace.spans();
  const callId = spans.at(-1)?.callId;
  return spans.filter((s) => s.callId === callId);
}

describe('the browser environment rules', () => {
  it('refuse a ref while no page is open, before the tool runs', async () => {
    const error = refusal(await call('browser_click', { ref: 'e3' }));
    expect(error.data).toMatchObject({ gate: 'environment', rule: 'browser-no-page' });
    expect(error.message).toContain('no browser page is open');
    expect(error.hint).toContain('browser_navigate');
    expect(lastCallSpans().map((s) => s.attempt)).toEqual([0]);
    expect(h.manager.started).toBe(false);
  });

  it('refuse using a page a modal dialog blocks, and let the call that answers it through', async () => {
    expect((await call('browser_navigate', { url: `${h.base}/dialogs.html` })).ok).toBe(true);
    const snap = await call('browser_snapshot');
    const text = snap.ok && snap.content[0]?.type === 'text' ? snap.content[0].text : '';
    expect((await call('browser_click', { ref: refOf(text, /button "Show alert"/) })).ok).toBe(true);
    const error = refusal(await call('browser_snapshot'));
    expect(error.data).toMatchObject({ gate: 'environment', rule: 'browser-dialog-pending' });
    expect(error.message).toContain('blocked by a modal alert dialog saying "Saved!"');
    expect(error.hint).toContain('"dialog": "accept"');
    expect(lastCallSpans().map((s) => s.attempt)).toEqual([0]);
    expect((await call('browser_click', { dialog: 'accept' })).ok).toBe(true);
    expect((await call('browser_snapshot')).ok).toBe(true);
  });

  it('refuse a ref while the page loads a new document, and fail open once that reading is stale', async () => {
    expect((await call('browser_navigate', { url: `${h.base}/loading.html`, waitUntil: 'commit' })).ok).toBe(true);
    await expect.poll(() => browserTelemetryReading(h.manager, 'browser.loading')?.value).toBe(true);
    const error = refusal(await call('browser_click', { ref: 'e2' }));
    expect(error.data).toMatchObject({ gate: 'environment', rule: 'browser-page-loading' });
    expect(error.message).toContain('still loading');

    // The same reading seen by a gate whose clock is 11 s later: too old to infer anything from.
    const later = { ...systemClock, now: () => systemClock.now() + 11_000 };
    const gate = new EnvironmentGate({
      telemetry: telemetry(),
      rules: browserEnvironmentRules(h.manager),
      clock: later,
    });
    expect(gate.check(registry.get('browser_click')!, { ref: 'e2' })).toBeUndefined();
    // A tool that uses no ref is not held by the load.
    expect(
      new EnvironmentGate({ telemetry: telemetry(), rules: browserEnvironmentRules(h.manager) }).check(
        registry.get('browser_snapshot')!,
        {},
      ),
    ).toBeUndefined();
  });
});
