/**
 * Rule guarded (docs/architecture.md#the-pipeline, docs/architecture.md#traces): createPipeline
 * wires every v3 part with defaults on one clock; the host can stream spans, breaker transitions
 * and approval decisions; usage is aggregated once per call; and no span, export, report, timeline
 * or audit entry ever carries the text of the arguments — a secret passed in is nowhere to be
 * found.
 */
import { describe, expect, it } from 'vitest';
import type { TraceSpan } from '../../tools/core';
import { type ApprovalAuditEntry, type BreakerTransition, createPipeline } from '../../tools/core/pipeline';
import { DESTRUCTIVE, MUTATING, fixtureTool, registryOf } from './fixtures';
import { ManualClock } from '../support/manual-clock';

const SECRET = 'ghp_S3cr3tT0kenDoNotLeak';

describe('createPipeline', () => {
  it('denies calls that need approval when no approver is connected', async () => {
    const tool = fixtureTool('delete_file', () => 'deleted', {
      annotations: DESTRUCTIVE,
      metadata: { category: 'files', risk: 'HIGH' },
    });
    const { executor, approval } = createPipeline(registryOf(tool));
    expect(await executor.execute({ toolId: 'delete_file', args: { text: 'a' } })).toMatchObject({
      ok: false,
      error: {
        code: 'PERMISSION_DENIED',
        message: "The user denied 'delete_file': no approver is connected to this host",
      },
    });
    expect(approval).toBeDefined();
  });

  it('leaves out the parts turned off with false', async () => {
    const tool = fixtureTool('delete_file', () => 'deleted', {
      annotations: DESTRUCTIVE,
      metadata: { category: 'files', risk: 'HIGH' },
    });
    const p = createPipeline(registryOf(tool), {
      approval: false,
      breaker: false,
      rateLimit: false,
      environment: false,
    });
    expect([p.approval, p.breakers, p.rateLimiter, p.environment, p.telemetry]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(await p.executor.execute({ toolId: 'delete_file', args: { text: 'a' } })).toMatchObject({ ok: true });
    expect(p.events.onBreakerTransition(() => undefined).dispose).toBeTypeOf('function');
  });

  it('streams spans, breaker transitions and approval decisions to the host until disposed', async () => {
    const clock = new ManualClock(0);
    const flaky = fixtureTool(
      'app_uninstall',
      () => {
        throw new Error('device said no');
      },
      { annotations: DESTRUCTIVE, metadata: { category: 'apps', risk: 'HIGH' } },
    );
    const p = createPipeline(registryOf(flaky), {
      clock,
      breaker: { failureThreshold: 1 },
      approval: { decide: async () => ({ decision: 'approve_session', decider: 'qa' }) },
    });
    const spans: TraceSpan[] = [];
    const transitions: BreakerTransition[] = [];
    const decisions: ApprovalAuditEntry[] = [];
    const subs = [
      p.events.onSpan((s) => spans.push(s)),
      p.events.onBreakerTransition((t) => transitions.push(t)),
      p.events.onApprovalDecision((d) => decisions.push(d)),
    ];
    await p.executor.execute({ toolId: 'app_uninstall', args: { text: 'com.example' }, callId: 'u1' });
    await p.executor.execute({ toolId: 'app_uninstall', args: { text: 'com.example' }, callId: 'u2' });
    for (const s of subs) s.dispose();
    await p.executor.execute({ toolId: 'app_uninstall', args: { text: 'com.example' }, callId: 'u3' });
    expect(spans.map((s) => [s.callId, s.errorCode])).toEqual([
      ['u1', 'EXECUTION_FAILED'],
      ['u2', 'CIRCUIT_OPEN'],
    ]);
    expect(transitions).toMatchObject([{ toolId: 'app_uninstall', from: 'closed', to: 'open' }]);
    expect(decisions).toMatchObject([{ callId: 'u1', decision: 'approve_session', decider: 'qa' }]);
    expect(p.trace.size).toBe(3);
  });

  it('records usage once per call, however many attempts it took', async () => {
    const clock = new ManualClock(0);
    let runs = 0;
    const tool = fixtureTool('web_fetch', () => (++runs % 2 === 1 ? 'Error: reset' : 'ok'), { runPolicy: 'network' });
    const p = createPipeline(registryOf(tool), { clock, random: () => 0 });
    await p.executor.execute({ toolId: 'web_fetch', args: { text: 'a' } });
    await p.executor.execute({ toolId: 'web_fetch', args: { text: 'b' } });
    expect(runs).toBe(4);
    expect(p.usage.stats('web_fetch')).toMatchObject({ count: 2, successes: 2, failures: 0 });
    expect(p.trace.size).toBe(4);
  });

  it('names the parent call of a nested call in its span', async () => {
    const child = fixtureTool('child_tool', () => 'child');
    const parent = fixtureTool('parent_tool', async (_, ctx) =>
      (await ctx.invoke({ toolId: 'child_tool', args: { text: 'y' } })).ok ? 'ok' : 'bad',
    );
    const p = createPipeline(registryOf(child, parent));
    await p.executor.execute({ toolId: 'parent_tool', args: { text: 'x' }, callId: 'outer' });
    expect(p.trace.spans().map((s) => [s.toolId, s.parentCallId])).toEqual([
      ['child_tool', 'outer'],
      ['parent_tool', undefined],
    ]);
  });

  it('keeps the configured number of spans', async () => {
    const p = createPipeline(registryOf(fixtureTool('calculate', () => '1')), { traceCapacity: 3 });
    for (let i = 0; i < 10; i++) await p.executor.execute({ toolId: 'calculate', args: { text: '1+0' } });
    expect(p.trace.spans()).toHaveLength(3);
  });

  it('never lets the text of the arguments into spans, exports, reports, timelines or the audit', async () => {
    const clock = new ManualClock(0);
    const audit: ApprovalAuditEntry[] = [];
    const tools = [
      fixtureTool('echo_ok', ({ text }) => `got ${text}`),
      fixtureTool('leaky_failure', ({ text }) => {
        throw new Error(`bad token ${text} rejected by server`);
      }),
      fixtureTool('leaky_string', ({ text }) => `Error: ${text} is invalid`),
      fixtureTool('hangs', () => new Promise<never>(() => undefined), { runPolicy: 'mutating', annotations: MUTATING }),
      fixtureTool('delete_file', () => 'deleted', {
        annotations: DESTRUCTIVE,
        metadata: { category: 'files', risk: 'HIGH' },
      }),
    ];
    const p = createPipeline(registryOf(...tools), {
      clock,
      random: () => 0,
      breaker: { failureThreshold: 2 },
      rateLimit: { perMinute: { echo_ok: 1 } },
      approval: { decide: async () => ({ decision: 'deny', reason: 'no' }), audit: { record: (e) => audit.push(e) } },
    });
    const args = { text: SECRET, [SECRET]: SECRET };
    const bad = { text: 42, extra: SECRET };
    for (const toolId of [
      'echo_ok',
      'echo_ok',
      'leaky_failure',
      'leaky_failure',
      'leaky_failure',
      'leaky_string',
      'delete_file',
    ]) {
      await p.executor.execute({ toolId, args });
      await p.executor.execute({ toolId, args: bad });
    }
    const hanging = p.executor.execute({ toolId: 'hangs', args });
    await clock.advanceAsync(60_000);
    await hanging;

    const everything = [
      JSON.stringify(p.trace.spans()),
      p.trace.exportJson(),
      JSON.stringify(p.trace.histogramReport()),
      JSON.stringify(p.breakers!.timeline('leaky_failure')),
      JSON.stringify(audit),
    ];
    expect(p.trace.size).toBeGreaterThan(10);
    expect(audit.length).toBeGreaterThan(0);
    for (const text of everything) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('S3cr3t');
    }
    const slugs = new Set(p.trace.spans().map((s) => s.errorSlug));
    expect([...slugs].sort()).toEqual(
      [
        'approval-denied',
        'bad-token-rejected-by',
        'circuit-open',
        'invalid-argument',
        'is-invalid',
        'rate-limited',
        'timeout',
        undefined,
      ].sort(),
    );
  });
});
