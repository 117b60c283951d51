/**
 * The approval gate as a stage (approval-gate.ts): a call that needs a person, or that an approval
 * rule asks about, waits for one; a denial (a person's or a rule's), a timeout or the caller
 * leaving ends it, and the call's span says who decided (`decidedBy`). The wait is the person's
 * time, not the tool's: it is kept apart from the run in the call's span and usage.
 */
import type { ToolResult } from '../../result';
import type { ApprovalGate, Refused } from '../approval-gate';
import type { Clock } from '../clock';
import type { Next, PipelineCall, Stage } from '../pipeline-call';

export function approvalStage(gate: ApprovalGate, clock: Clock): Stage {
  return (c, next) => {
    if (!gate.concerns(c.tool)) return next(c);
    const since = clock.now();
    const verdict = gate.check(
      c.tool,
      {
        callId: c.callId,
        sessionId: c.sessionId,
        args: c.args,
        requester: c.requester,
        ...(c.digest !== undefined ? { argsDigest: c.digest } : {}),
        ...(c.ignored !== undefined ? { ignored: c.ignored } : {}),
        ...(c.call.onProgress !== undefined ? { onProgress: c.call.onProgress } : {}),
      },
      c.call.signal,
    );
    if (verdict === undefined) return next(c);
    if (!(verdict instanceof Promise)) return refused(c, verdict);
    return verdict.then((denied) => {
      const waited = clock.now() - since;
      c.personWaitMs += waited;
      c.attemptWaitMs += waited;
      return denied !== undefined ? refused(c, denied) : runApproved(gate, c, next);
    });
  };
}

function refused(c: PipelineCall, { refusal, decidedBy }: Refused): ToolResult {
  c.decidedBy = decidedBy;
  return refusal;
}

/** Runs an approved call; a self-gated tool's own gate knows the person approved it until the call ends. */
async function runApproved(gate: ApprovalGate, c: PipelineCall, next: Next): Promise<ToolResult> {
  if (!gate.approvedWithCall(c.callId)) return next(c);
  try {
    return await next(c);
  } finally {
    gate.forgetCall(c.callId);
  }
}
