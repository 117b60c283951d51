/**
 * Rule guarded (docs/architecture.md#approval-gate): a HIGH-risk or destructive tool never runs
 * without an approve decision; approve once / approve for the session / deny with a reason;
 * self-gated tools are not asked twice; no decision in time is a denial; cancelling the call
 * while it waits ends it with nothing left behind; every decision is audited with an arguments
 * digest, never the arguments.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApprovalDecision, ApprovalRequest } from '../../tools/core';
import { type ApprovalAuditEntry, ApprovalGate, assemblePipeline } from '../../tools/core/pipeline';
import { DESTRUCTIVE, MUTATING, deferred, fixtureTool, isSettled, registryOf } from './fixtures';
import { ManualClock } from '../support/manual-clock';

type Decide = (request: ApprovalRequest, signal?: AbortSignal) => Promise<ApprovalDecision>;

function setup(decide: Decide, timeoutMs?: number) {
  const clock = new ManualClock();
  const audit: ApprovalAuditEntry[] = [];
  const runs: string[] = [];
  const gate = new ApprovalGate({
    decide,
    clock,
    audit: { record: (e) => audit.push(e) },
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  const registry = registryOf(
    fixtureTool(
      'delete_file',
      (_, ctx) => {
        runs.push(ctx.callId);
        return 'deleted';
      },
      { annotations: DESTRUCTIVE, metadata: { category: 'files', risk: 'HIGH' } },
    ),
    fixtureTool(
      'app_launch',
      (_, ctx) => {
        runs.push(ctx.callId);
        return 'launched';
      },
      { annotations: MUTATING, metadata: { category: 'apps', risk: 'MEDIUM' } },
    ),
    fixtureTool(
      'shell_execute',
      (_, ctx) => {
        runs.push(ctx.callId);
        return 'ran';
      },
      { annotations: DESTRUCTIVE, metadata: { category: 'shell', risk: 'HIGH' }, selfGated: true },
    ),
    fixtureTool('own_gate_tool', () => 'self-gated', {
      annotations: DESTRUCTIVE,
      metadata: { category: 'utility', risk: 'HIGH' },
      selfGated: true,
    }),
    fixtureTool('ui_dump', () => 'tree'),
  );
  const executor = assemblePipeline(registry, { approval: gate, clock });
  return { clock, audit, runs, gate, executor };
}

const del = (callId: string, sessionId = 's1', text = 'notes.txt') => ({
  toolId: 'delete_file',
  args: { text },
  callId,
  sessionId,
});

describe('ApprovalGate', () => {
  it('denies with the reason the person gave, and the tool does not run', async () => {
    const s = setup(async () => ({ decision: 'deny', reason: 'not now', decider: 'alice' }));
    expect(await s.executor.execute(del('c1'))).toEqual({
      ok: false,
      error: {
        code: 'PERMISSION_DENIED',
        message: "The user denied 'delete_file': not now",
        hint: 'Do not retry this call; change your approach.',
        data: { reason: 'not now', gate: 'approval', decision: 'deny', slug: 'approval-denied' },
      },
    });
    expect(s.runs).toEqual([]);
    expect(s.audit).toMatchObject([
      { callId: 'c1', sessionId: 's1', toolId: 'delete_file', decision: 'deny', reason: 'not now', decider: 'alice' },
    ]);
  });

  it('denies when no decision comes within the timeout (120 s by default), saying how long it waited', async () => {
    let promptSignal: AbortSignal | undefined;
    const s = setup((_, signal) => {
      promptSignal = signal;
      return new Promise(() => undefined);
    });
    const pending = s.executor.execute(del('c1'));
    await s.clock.advanceAsync(119_999);
    expect(await isSettled(pending)).toBe(false);
    await s.clock.advanceAsync(1);
    expect(await pending).toEqual({
      ok: false,
      error: {
        code: 'PERMISSION_DENIED',
        message: "No one answered: the call to 'delete_file' waited 2:00 for a person's approval and did not run.",
        hint: 'Nobody approved this call in time. Do not retry it on your own; tell the user it needs their approval.',
        data: { gate: 'approval', decision: 'timeout', slug: 'approval-timeout', waitedMs: 120_000 },
      },
    });
    expect(promptSignal?.aborted).toBe(true); // the UI can withdraw the prompt
    expect(promptSignal?.reason).toBe('expired');
    expect(s.audit).toMatchObject([{ decision: 'timeout', reason: 'no one answered', waitedMs: 120_000 }]);
    expect(s.runs).toEqual([]);
  });

  it('withdraws the wait of a call cancelled meanwhile, no timer left, audited as withdrawn: caller gone', async () => {
    const s = setup(() => new Promise(() => undefined), 5_000);
    const controller = new AbortController();
    const pending = s.executor.execute({ ...del('c1'), signal: controller.signal });
    await s.clock.advanceAsync(1_000);
    expect(s.clock.pendingTimers).toBe(1);
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'EXECUTION_FAILED',
        message: "The call to 'delete_file' was cancelled while waiting for approval.",
        data: { cancelled: true },
      },
    });
    expect(s.clock.pendingTimers).toBe(0);
    expect(s.audit).toMatchObject([{ decision: 'withdrawn', reason: 'caller gone', waitedMs: 1_000 }]);
    await s.clock.advanceAsync(10_000);
    expect(s.runs).toEqual([]);
    expect(s.audit).toHaveLength(1);
  });

  it('ends at once a call whose signal was aborted before it asked', async () => {
    let asked = 0;
    const s = setup(async () => {
      asked++;
      return { decision: 'approve_once' };
    });
    const result = await s.executor.execute({ ...del('c1'), signal: AbortSignal.abort() });
    expect(result).toMatchObject({ ok: false, error: { data: { cancelled: true } } });
    expect(asked).toBe(0);
  });

  it('denies when the approver fails or answers nonsense', async () => {
    const failing = setup(async () => {
      throw new Error('UI is gone');
    });
    expect(await failing.executor.execute(del('c1'))).toMatchObject({
      ok: false,
      error: { code: 'PERMISSION_DENIED', message: "Approval for 'delete_file' could not be obtained: UI is gone" },
    });
    const nonsense = setup(async () => ({ decision: 'maybe' }) as unknown as ApprovalDecision);
    expect(await nonsense.executor.execute(del('c2'))).toMatchObject({
      ok: false,
      error: { code: 'PERMISSION_DENIED' },
    });
    expect(failing.runs.concat(nonsense.runs)).toEqual([]);
  });

  it('runs the tool once for "approve once" and asks again next time', async () => {
    let asked = 0;
    const s = setup(async () => {
      asked++;
      return { decision: 'approve_once', decider: 'bob' };
    });
    expect(await s.executor.execute(del('c1'))).toMatchObject({ ok: true });
    expect(await s.executor.execute(del('c2'))).toMatchObject({ ok: true });
    expect(asked).toBe(2);
    expect(s.audit.map((a) => [a.callId, a.decision, a.decider])).toEqual([
      ['c1', 'approve_once', 'bob'],
      ['c2', 'approve_once', 'bob'],
    ]);
  });

  it('does not ask again in the same session after "approve for this session", but does in another', async () => {
    let asked = 0;
    const s = setup(async () => {
      asked++;
      return { decision: 'approve_session' };
    });
    await s.executor.execute(del('c1', 's1'));
    await s.executor.execute(del('c2', 's1'));
    expect(asked).toBe(1);
    await s.executor.execute(del('c3', 's2'));
    expect(asked).toBe(2);
    s.gate.permissions.endSession('s1');
    await s.executor.execute(del('c4', 's1'));
    expect(asked).toBe(3);
    expect(s.runs).toEqual(['c1', 'c2', 'c3', 'c4']);
  });

  it('does not ask for self-gated tools, nor for tools that are neither HIGH risk nor destructive', async () => {
    let asked = 0;
    const s = setup(async () => {
      asked++;
      return { decision: 'deny' };
    });
    expect(await s.executor.execute({ toolId: 'shell_execute', args: { text: 'ls' } })).toMatchObject({ ok: true });
    expect(await s.executor.execute({ toolId: 'own_gate_tool', args: { text: 'x' } })).toMatchObject({ ok: true });
    expect(await s.executor.execute({ toolId: 'app_launch', args: { text: 'x' } })).toMatchObject({ ok: true });
    expect(await s.executor.execute({ toolId: 'ui_dump', args: { text: 'x' } })).toMatchObject({ ok: true });
    expect(asked).toBe(0);
  });

  it('shows the approver the tool, its risk and the arguments, but audits only a digest of them', async () => {
    const secret = 'p4ssw0rd-very-secret';
    const requests: ApprovalRequest[] = [];
    const s = setup(async (request) => {
      requests.push(request);
      return { decision: 'approve_once' };
    });
    await s.executor.execute(del('c1', 's1', secret));
    expect(requests[0]).toMatchObject({
      toolId: 'delete_file',
      risk: 'HIGH',
      args: { text: secret },
      annotations: { destructiveHint: true },
    });
    expect(JSON.stringify(s.audit)).not.toContain(secret);
    expect(s.audit[0]!.argsDigest.fields.text).toEqual({
      kind: 'string',
      length: secret.length,
      printable: secret.length,
    });
    expect(s.audit[0]!.at).toBe(s.clock.now());
  });

  it('never runs a destructive tool without an approve decision for that call or its session', async () => {
    type Answer = 'approve_once' | 'approve_session' | 'deny' | 'throw' | 'nonsense' | 'never';
    const answer = fc.constantFrom<Answer>('approve_once', 'approve_session', 'deny', 'throw', 'nonsense', 'never');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(answer, fc.constantFrom('s1', 's2'), fc.boolean()), { minLength: 1, maxLength: 12 }),
        async (script) => {
          let i = 0;
          const s = setup(async () => {
            const a = script[i]?.[0] ?? 'deny';
            if (a === 'throw') throw new Error('no UI');
            if (a === 'nonsense') return {} as ApprovalDecision;
            if (a === 'never') return new Promise<ApprovalDecision>(() => undefined);
            return { decision: a };
          }, 1_000);
          for (i = 0; i < script.length; i++) {
            const [, session, cancel] = script[i]!;
            const controller = new AbortController();
            const pending = s.executor.execute({ ...del(`c${i}`, session), signal: controller.signal });
            if (cancel) controller.abort();
            await s.clock.advanceAsync(1_000);
            await pending;
          }
          const approvedSessions = new Set<string>();
          const mayRun = new Set<string>();
          script.forEach(([a, session], n) => {
            const entry = s.audit.find((e) => e.callId === `c${n}`);
            if (
              approvedSessions.has(session) ||
              entry?.decision === 'approve_once' ||
              entry?.decision === 'approve_session'
            )
              mayRun.add(`c${n}`);
            if (entry?.decision === 'approve_session' && a === 'approve_session') approvedSessions.add(session);
          });
          for (const ran of s.runs) expect(mayRun.has(ran)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers without waiting when the decision comes at once', async () => {
    const d = deferred<ApprovalDecision>();
    const s = setup(() => d.promise);
    const pending = s.executor.execute(del('c1'));
    d.resolve({ decision: 'approve_once' });
    expect(await pending).toMatchObject({ ok: true });
    expect(s.clock.pendingTimers).toBe(0);
  });
});
