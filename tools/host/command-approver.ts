/**
 * shell_execute's command-level gate asks a person through the same approval queue as the
 * tool-level gate, with the same decision timeout and the same audit log, so a `rm` waits for a
 * click exactly like an app_uninstall does.
 */
import type { ApprovalDecision, ApprovalRequest } from '../core/permission';
import { digestArgs } from '../core/trace/args-digest';
import type { ApprovalQueue } from './approval-queue';
import type { AuditStore } from './store/audit-store';

export function queueCommandApprover(queue: ApprovalQueue, audit: AuditStore, timeoutMs: number) {
  return async (request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalDecision> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const decision = await queue.decide(request, both);
    const timedOut = timeout.aborted && !(signal?.aborted ?? false);
    const outcome: ApprovalDecision = timedOut
      ? {
          decision: 'deny',
          reason: `no decision within ${Math.round(timeoutMs / 1000)} s; treated as a denial`,
          decider: 'system',
        }
      : decision;
    audit.append({
      at: Date.now(),
      callId: request.callId,
      sessionId: request.sessionId,
      toolId: request.toolId,
      argsDigest: JSON.stringify(digestArgs(request.args)),
      decision: timedOut ? 'timeout' : signal?.aborted ? 'cancelled' : outcome.decision,
      ...(outcome.decision === 'deny' && outcome.reason ? { reason: outcome.reason } : {}),
      ...(outcome.decider ? { decider: outcome.decider } : {}),
    });
    return outcome;
  };
}
