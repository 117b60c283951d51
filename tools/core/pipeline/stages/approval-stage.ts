/**
 * The approval gate as a stage (approval-gate.ts): a call that needs a person waits for one; a
 * denial, a timeout or a cancellation while waiting ends it. The wait is the person's time, not
 * the tool's: it is kept apart from the run in the call's span and usage.
 */
import type { ApprovalGate } from '../approval-gate';
import { digestOf } from '../call-trace';
import type { Clock } from '../clock';
import type { Stage } from '../pipeline-call';

export function approvalStage(gate: ApprovalGate, clock: Clock): Stage {
  return (c, next) => {
    if (!gate.requiresDecision(c.tool, c.sessionId)) return next(c);
    const since = clock.now();
    return gate
      .check(
        c.tool,
        { callId: c.callId, sessionId: c.sessionId, args: c.args, requester: c.requester, argsDigest: digestOf(c) },
        c.call.signal,
      )
      .then((denied) => {
        const waited = clock.now() - since;
        c.personWaitMs += waited;
        c.attemptWaitMs += waited;
        return denied ?? next(c);
      });
  };
}
