/**
 * Rule: a refused call's span says who decided it (`decidedBy`: person, timeout, rule, policy,
 * approver-failed, caller-gone), whether the approval gate refused it or a running tool's own ask
 * was denied, and whatever words its arguments share with the error's slug. Its class is read
 * from that field (shared/call-classes.ts).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { classifyCall } from '../../shared/call-classes';
import { type ApprovalDecision, ToolCallError } from '../../tools/core';
import { createPipeline } from '../../tools/core/pipeline';
import { DESTRUCTIVE, fixtureTool, registryOf } from './fixtures';

const HIGH = { annotations: DESTRUCTIVE, metadata: { category: 'files' as const, risk: 'HIGH' as const } };

/** A self-gated tool that asks the person about its command while it runs, as shell_execute does. */
function askingPipeline(answer: () => Promise<ApprovalDecision>, timeoutMs = 60_000) {
  const p = createPipeline(
    registryOf(
      fixtureTool(
        'shell_execute',
        async (args, ctx) => {
          const decision = await p.approval!.askInTool({
            callId: ctx.callId,
            sessionId: ctx.sessionId,
            toolId: 'shell_execute',
            title: 'Run it',
            args: { command: args.text },
            risk: 'HIGH',
            annotations: DESTRUCTIVE as never,
            requester: ctx.requester,
          });
          if (decision.decision !== 'deny') return 'ran';
          throw new ToolCallError('PERMISSION_DENIED', `Not run: ${decision.reason ?? ''}`, {
            data: { slug: 'shell-denied' },
          });
        },
        { ...HIGH, input: z.object({ text: z.string() }), selfGated: true },
      ),
    ),
    { approval: { decide: answer, timeoutMs }, fields: false },
  );
  return p;
}

describe('who decided, on the span', () => {
  it("is the person when a person denies at the gate, though the arguments spell the gate's slug", async () => {
    const p = createPipeline(registryOf(fixtureTool('delete_file', () => 'gone', HIGH)), {
      approval: { decide: async () => ({ decision: 'deny', decider: 'ui' }) },
    });
    await p.executor.execute({ toolId: 'delete_file', args: { text: 'approval-denied' } });
    const [span] = p.trace.spans();
    expect(span).toMatchObject({ errorSlug: 'permission-denied', decidedBy: 'person', attempt: 0 });
    expect(classifyCall(span!)).toBe('denied');
  });

  it('is the system when no approver is connected: a refusal by policy, not a person', async () => {
    const p = createPipeline(registryOf(fixtureTool('delete_file', () => 'gone', HIGH)));
    await p.executor.execute({ toolId: 'delete_file', args: { text: 'x' } });
    const [span] = p.trace.spans();
    expect(span).toMatchObject({ errorSlug: 'approval-denied', decidedBy: 'policy' });
    expect(classifyCall(span!)).toBe('policyRefused');
  });

  it('is the person when a running tool asks and the person denies, though the command spells the slug', async () => {
    const p = askingPipeline(async () => ({ decision: 'deny', decider: 'ui' }));
    const result = await p.executor.execute({ toolId: 'shell_execute', args: { text: 'echo shell-denied' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    const [span] = p.trace.spans();
    expect(span).toMatchObject({ attempt: 1, errorSlug: 'permission-denied', decidedBy: 'person' });
    expect(classifyCall(span!)).toBe('denied');
  });

  it("is the approver's failure when the approver throws: unanswered", async () => {
    const p = askingPipeline(async () => {
      throw new Error('queue closed');
    });
    await p.executor.execute({ toolId: 'shell_execute', args: { text: 'echo approval-failed' } });
    const [span] = p.trace.spans();
    expect(span).toMatchObject({ decidedBy: 'approver-failed' });
    expect(classifyCall(span!)).toBe('unanswered');
  });

  it('is absent when the asked person approved: a success has nobody who refused it', async () => {
    const p = askingPipeline(async () => ({ decision: 'approve_once', decider: 'ui' }));
    expect(await p.executor.execute({ toolId: 'shell_execute', args: { text: 'ls' } })).toMatchObject({ ok: true });
    expect(p.trace.spans()[0]?.decidedBy).toBeUndefined();
  });
});
