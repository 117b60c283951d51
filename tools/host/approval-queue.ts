/**
 * Pending approvals as a queue a person works through in the UI (or Electron's notification).
 * The pipeline's approval gate calls `decide()`; it waits until someone answers, the call is
 * cancelled, or the host shuts down. The gate owns the decision timeout; the queue shows when it
 * expires.
 */
import { randomUUID } from 'node:crypto';
import { type Disposable, Emitter } from '../core/disposable';
import type { ApprovalDecision, ApprovalRequest } from '../core/permission';

export interface PendingApprovalItem extends ApprovalRequest {
  approvalId: string;
  requestedAt: number;
  expiresAt: number;
}

export type ApprovalQueueEvent =
  | { type: 'pending'; item: PendingApprovalItem }
  | { type: 'decided'; approvalId: string; decision: ApprovalDecision['decision'] | 'cancelled' };

interface Waiter {
  item: PendingApprovalItem;
  resolve(decision: ApprovalDecision): void;
}

export class ApprovalQueue {
  private readonly waiting = new Map<string, Waiter>();
  private readonly events = new Emitter<ApprovalQueueEvent>();

  constructor(
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The decider port the approval gate uses. */
  readonly decide = (request: ApprovalRequest, signal?: AbortSignal): Promise<ApprovalDecision> =>
    new Promise<ApprovalDecision>((resolve) => {
      const approvalId = randomUUID();
      const requestedAt = this.now();
      const item: PendingApprovalItem = {
        ...request,
        approvalId,
        requestedAt,
        expiresAt: requestedAt + this.timeoutMs,
      };
      const finish = (decision: ApprovalDecision, label: ApprovalDecision['decision'] | 'cancelled') => {
        if (!this.waiting.delete(approvalId)) return;
        signal?.removeEventListener('abort', onAbort);
        this.events.emit({ type: 'decided', approvalId, decision: label });
        resolve(decision);
      };
      const onAbort = () =>
        finish(
          { decision: 'deny', reason: 'the call was cancelled or timed out before a decision', decider: 'system' },
          'cancelled',
        );
      this.waiting.set(approvalId, { item, resolve: (d) => finish(d, d.decision) });
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.events.emit({ type: 'pending', item });
    });

  /** A person's answer. False when the approval is no longer pending (already decided, expired). */
  answer(approvalId: string, decision: ApprovalDecision): boolean {
    const waiter = this.waiting.get(approvalId);
    if (!waiter) return false;
    waiter.resolve(decision);
    return true;
  }

  pending(): PendingApprovalItem[] {
    return [...this.waiting.values()].map((w) => w.item).sort((a, b) => a.requestedAt - b.requestedAt);
  }

  /** Denies everything still waiting (host shutdown). */
  denyAll(reason: string): number {
    const ids = [...this.waiting.keys()];
    for (const id of ids) this.answer(id, { decision: 'deny', reason, decider: 'system' });
    return ids.length;
  }

  onEvent(listener: (e: ApprovalQueueEvent) => void): Disposable {
    return this.events.on(listener);
  }
}
