/**
 * Rule (docs/adding-a-tool.md, the test triple): a family's tests run its tools through the
 * pipeline the host builds, made by the host's own function (composeHostPipeline), with only what
 * they do not study turned off by name. So the family
 * pipeline has the host's environment gate (on the host's telemetry, with the rules a family
 * adds), validation that tells the model which fields it ignored, the approval gate asking a
 * person who approves once and records what was asked, the breaker with its default thresholds,
 * the real run policies with their retries, and a span per attempt; the per-minute quotas alone
 * are off.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_BREAKER_OPTIONS, type Pipeline } from '../../tools/core/pipeline';
import { startTestHost } from '../host/harness';
import { DESTRUCTIVE, MUTATING, fixtureTool } from '../pipeline/fixtures';
import { NOT_STUDIED, familyPipeline } from './family-pipeline';

describe('the family pipeline', () => {
  it('turns off the per-minute quotas and nothing else', async () => {
    expect(NOT_STUDIED).toEqual({ rateLimit: false });
    const family = familyPipeline({ tools: [fixtureTool('get_time', () => '12:00')] });
    expect(family.pipeline.rateLimiter).toBeUndefined();
    expect(family.pipeline.environment).toBeDefined();
    expect(family.pipeline.approval).toBeDefined();
    expect(family.pipeline.breakers).toBeDefined();
    // Past the 120 calls a minute a quick read gets from the host.
    for (let i = 0; i < 130; i++) expect((await family.call('get_time', { text: 'now' })).ok).toBe(true);
  });

  it('asks the person about a destructive call, records the request, and refuses when the person denies', async () => {
    let runs = 0;
    const family = familyPipeline({
      tools: [fixtureTool('forget', () => `forgot ${++runs}`, { annotations: DESTRUCTIVE })],
    });
    expect((await family.call('forget', { text: 'a' })).ok).toBe(true);
    family.decide = () => ({ decision: 'deny', reason: 'not this one' });
    const denied = await family.call('forget', { text: 'b' });
    expect(!denied.ok && denied.error.code).toBe('PERMISSION_DENIED');
    expect(family.approvals.map((r) => [r.toolId, r.args])).toEqual([
      ['forget', { text: 'a' }],
      ['forget', { text: 'b' }],
    ]);
    expect(family.audit.map((e) => e.decision)).toEqual(['approve_once', 'deny']);
    expect(runs).toBe(1);
  });

  it("retries a read-only tool's transient failure under its run policy, one span per attempt", async () => {
    let runs = 0;
    const family = familyPipeline({
      tools: [fixtureTool('read_flaky', () => (++runs === 1 ? 'Error: connection reset' : 'read'))],
    });
    expect(await family.call('read_flaky', { text: 'x' })).toMatchObject({ ok: true });
    expect(runs).toBe(2);
    expect(family.pipeline.trace.spans().map((s) => [s.attempt, s.outcome])).toEqual([
      [1, 'error'],
      [2, 'success'],
    ]);
  });

  it('opens the breaker after the default number of failures in a row', async () => {
    let runs = 0;
    const family = familyPipeline({
      tools: [fixtureTool('write_broken', () => (runs++, 'Error: disk on fire'), { annotations: MUTATING })],
    });
    for (let i = 0; i < DEFAULT_BREAKER_OPTIONS.failureThreshold; i++)
      expect((await family.call('write_broken', { text: 'x' })).ok).toBe(false);
    const refused = await family.call('write_broken', { text: 'x' });
    expect(!refused.ok && refused.error.code).toBe('CIRCUIT_OPEN');
    expect(runs).toBe(DEFAULT_BREAKER_OPTIONS.failureThreshold);
  });

  it("refuses through a family's environment rules, read from the host's telemetry", async () => {
    const family = familyPipeline({ tools: [fixtureTool('ui_tap', () => 'tapped', { annotations: MUTATING })] });
    family.addRules([
      {
        id: 'screen-off',
        appliesTo: (tool) => tool.id === 'ui_tap',
        check: (read) => (read('screen.on') === false ? { message: 'the screen is off', hint: 'Wake it.' } : undefined),
      },
    ]);
    expect((await family.call('ui_tap', { text: 'x' })).ok).toBe(true);
    family.telemetry.set('screen.on', false);
    const refused = await family.call('ui_tap', { text: 'x' });
    expect(!refused.ok && refused.error.data).toMatchObject({ gate: 'environment', rule: 'screen-off' });
  });

  it("has the parts a started host's pipeline has, the per-minute quotas apart", async () => {
    const parts = (p: Pipeline) => ({
      environment: p.environment !== undefined,
      approval: p.approval !== undefined,
      rateLimiter: p.rateLimiter !== undefined,
      breakers: p.breakers !== undefined,
      spansKept: p.trace.capacity,
    });
    const t = await startTestHost();
    try {
      expect(parts(familyPipeline().pipeline)).toEqual({ ...parts(t.host.pipeline), rateLimiter: false });
    } finally {
      await t.dispose();
    }
  });

  it('tells the model which fields it ignored, as the host does', async () => {
    const family = familyPipeline({ tools: [fixtureTool('get_time', () => '12:00')] });
    const result = await family.call('get_time', { text: 'now', colour: 'blue' });
    expect(result.ok && result.content.at(-1)).toMatchObject({ type: 'text', text: expect.stringContaining('colour') });
  });
});
