/**
 * Rule guarded (docs/architecture.md#approval-gate, docs/architecture.md#traces): time waiting for
 * a person is not tool time. A waiting call tells its caller every interval how long is left (MCP
 * progress, so a client resetting its timeout on progress keeps the call); an approval asked from
 * inside a running tool holds the tool's run timeout while it waits and the run resumes with the
 * time it had left; the span keeps the wait apart from the run, and latency, usage and the breaker
 * see only the run.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { ApprovalDecision, ProgressUpdate } from '../../tools/core';
import { createPipeline } from '../../tools/core/pipeline';
import { ManualClock } from '../support/manual-clock';
import { DESTRUCTIVE, type Deferred, deferred, fixtureTool, isSettled, registryOf } from './fixtures';

describe('a call waiting for a person', () => {
  it('tells its caller every interval that it waits and how long is left, and stops when decided', async () => {
    const clock = new ManualClock(0);
    const answer: Deferred<ApprovalDecision> = deferred();
    const tool = fixtureTool('app_uninstall', () => 'uninstalled', {
      annotations: DESTRUCTIVE,
      metadata: { category: 'apps', risk: 'HIGH' },
    });
    const p = createPipeline(registryOf(tool), {
      clock,
      approval: { decide: () => answer.promise, timeoutMs: 120_000, progressIntervalMs: 10_000 },
    });
    const progress: ProgressUpdate[] = [];
    const pending = p.executor.execute({
      toolId: 'app_uninstall',
      args: { text: 'x' },
      onProgress: (u) => progress.push(u),
    });
    await clock.advanceAsync(25_000);
    expect(progress).toEqual([
      { progress: 1, message: "waiting for a person's approval, 1:50 left" },
      { progress: 2, message: "waiting for a person's approval, 1:40 left" },
    ]);
    answer.resolve({ decision: 'approve_once' });
    expect(await pending).toMatchObject({ ok: true });
    await clock.advanceAsync(60_000);
    expect(progress).toHaveLength(2);
    expect(clock.pendingTimers).toBe(0);
  });

  it("keeps the gate's wait out of its usage and its span's run time", async () => {
    const clock = new ManualClock(0);
    const answer: Deferred<ApprovalDecision> = deferred();
    const tool = fixtureTool('app_uninstall', () => 'uninstalled', {
      annotations: DESTRUCTIVE,
      metadata: { category: 'apps', risk: 'HIGH' },
    });
    const p = createPipeline(registryOf(tool), { clock, approval: { decide: () => answer.promise } });
    const pending = p.executor.execute({ toolId: 'app_uninstall', args: { text: 'x' } });
    await clock.advanceAsync(40_000);
    answer.resolve({ decision: 'approve_once' });
    await pending;
    const [span] = p.trace.spans();
    expect(span).toMatchObject({ attempt: 1, outcome: 'success', personWaitMs: 40_000, durationMs: 0, startedAt: 0 });
    expect(p.usage.stats('app_uninstall')?.latencyMs.p50).toBe(0);
    expect(p.trace.histogramReport().tools[0]?.p50Ms).toBe(0);
  });
});

describe('an approval asked from inside a running tool', () => {
  function setup(runAfterMs = 2_000) {
    const clock = new ManualClock(0);
    const person: Deferred<ApprovalDecision>[] = [];
    const p = createPipeline(
      registryOf(
        fixtureTool(
          'shell_execute',
          async (_, ctx) => {
            await new Promise<void>((r) => clock.setTimeout(r, 1_000)); // the run before the question
            const decision = await p.approval!.askInTool(
              {
                callId: ctx.callId,
                sessionId: ctx.sessionId,
                toolId: 'shell_execute',
                title: 'Run rm',
                args: { command: 'rm /sdcard/x', serial: 'p1' },
                risk: 'HIGH',
                annotations: DESTRUCTIVE as never,
                requester: ctx.requester,
              },
              { signal: ctx.signal },
            );
            if (decision.decision === 'deny') return `Error: denied: ${decision.reason}`;
            await new Promise<void>((r) => clock.setTimeout(r, runAfterMs)); // the run after it
            return 'removed';
          },
          {
            annotations: DESTRUCTIVE,
            metadata: { category: 'shell', risk: 'HIGH' },
            input: z.object({ text: z.string().optional() }),
            // As the real shell_execute declares: it asks the person itself, from inside its run.
            selfGated: true,
          },
        ),
      ),
      {
        clock,
        policies: { mutating: { timeoutMs: 5_000 } },
        approval: {
          decide: () => {
            const d = deferred<ApprovalDecision>();
            person.push(d);
            return d.promise;
          },
          timeoutMs: 120_000,
          progressIntervalMs: 10_000,
        },
      },
    );
    return { clock, person, p };
  }

  it('holds the run timeout while a person decides: a 90 s decision ends in success, timeout untouched', async () => {
    const s = setup();
    const progress: ProgressUpdate[] = [];
    const pending = s.p.executor.execute({ toolId: 'shell_execute', args: {}, onProgress: (u) => progress.push(u) });
    await s.clock.advanceAsync(1_000);
    expect(s.person).toHaveLength(1);
    await s.clock.advanceAsync(90_000);
    expect(await isSettled(pending)).toBe(false);
    expect(progress.at(-1)).toEqual({ progress: 9, message: "waiting for a person's approval, 0:30 left" });
    s.person[0]!.resolve({ decision: 'approve_once' });
    await s.clock.advanceAsync(2_000);
    expect(await pending).toMatchObject({ ok: true, content: [{ text: 'removed' }] });
    const [span] = s.p.trace.spans();
    expect(span).toMatchObject({ outcome: 'success', durationMs: 3_000, personWaitMs: 90_000 });
    expect(s.p.usage.stats('shell_execute')?.latencyMs.p50).toBe(3_000);
    expect(s.p.breakers!.state('shell_execute')).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });

  it('resumes the run timeout with the time it had left, not afresh', async () => {
    // 1 s ran before the question and the timeout is 5 s: 4 s are left for the run after it.
    const fits = setup(3_900);
    const pendingFits = fits.p.executor.execute({ toolId: 'shell_execute', args: {} });
    await fits.clock.advanceAsync(1_000);
    await fits.clock.advanceAsync(30_000);
    fits.person[0]!.resolve({ decision: 'approve_once' });
    await fits.clock.advanceAsync(3_900);
    expect(await pendingFits).toMatchObject({ ok: true });

    const tooLong = setup(4_500);
    const pendingLong = tooLong.p.executor.execute({ toolId: 'shell_execute', args: {} });
    await tooLong.clock.advanceAsync(1_000);
    await tooLong.clock.advanceAsync(30_000);
    tooLong.person[0]!.resolve({ decision: 'approve_once' });
    await tooLong.clock.advanceAsync(4_500);
    expect(await pendingLong).toMatchObject({
      ok: false,
      error: { code: 'TIMEOUT', message: "Tool 'shell_execute' did not finish within 5 s and was stopped." },
    });
    expect(tooLong.p.trace.spans()[0]).toMatchObject({ durationMs: 5_000, personWaitMs: 30_000 });
  });

  it('still times out a run that is too long once the person answered', async () => {
    const s = setup();
    const slow = createPipeline(
      registryOf(
        fixtureTool(
          'app_force_stop',
          async (_, ctx) => {
            await new Promise<void>((r) => s.clock.setTimeout(r, 4_000));
            await slow.approval!.askInTool({
              callId: ctx.callId,
              sessionId: ctx.sessionId,
              toolId: 'app_force_stop',
              title: 'Stop',
              args: {},
              risk: 'HIGH',
              annotations: DESTRUCTIVE as never,
              requester: ctx.requester,
            });
            await new Promise<void>((r) => s.clock.setTimeout(r, 2_000));
            return 'stopped';
          },
          { annotations: DESTRUCTIVE, metadata: { category: 'apps', risk: 'HIGH' }, selfGated: true },
        ),
      ),
      {
        clock: s.clock,
        policies: { mutating: { timeoutMs: 5_000 } },
        approval: { decide: async () => ({ decision: 'approve_once' }) },
      },
    );
    const pending = slow.executor.execute({ toolId: 'app_force_stop', args: { text: 'x' } });
    await s.clock.advanceAsync(10_000);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
  });
});
