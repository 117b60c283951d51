/**
 * Pending approvals as a queue a person works through in the UI (or from Electron's notification).
 * The approval gate calls `decide()`; it waits until someone answers, or the gate withdraws it
 * through its signal: 'expired' when no one answered in time, 'withdrawn' when the caller is gone
 * (cancelled, disconnected, its request ended). A withdrawn approval can no longer be answered.
 * The gate owns the decision timeout; the queue shows when it expires.
 */
import { randomUUID } from 'node:crypto';
import { type Disposable, Emitter } from '../core/disposable';
import type { ApprovalDecision, ApprovalRequest } from '../core/permission';

export interface PendingApprovalItem extends ApprovalRequest {
  approvalId: string;
  requestedAt: number;
  expiresAt: number;
}

export type QueueOutcome = ApprovalDecision['decision'] | 'withdrawn' | 'expired';

export type ApprovalQueueEvent =
  | { type: 'pending'; item: PendingApprovalItem }
  | { type: 'decided'; approvalId: string; decision: QueueOutcome };

export type Answered = { ok: true } | { ok: false; why: 'gone' | 'not-offered' };

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
      const finish = (decision: ApprovalDecision, outcome: QueueOutcome) => {
        if (!this.waiting.delete(approvalId)) return;
        signal?.removeEventListener('abort', onAbort);
        this.events.emit({ type: 'decided', approvalId, decision: outcome });
        resolve(decision);
      };
      const onAbort = () => {
        const outcome = signal?.reason === 'expired' ? 'expired' : 'withdrawn';
        finish(
          { decision: 'deny', reason: outcome === 'expired' ? 'no one answered' : 'caller gone', decider: 'system' },
          outcome,
        );
      };
      this.waiting.set(approvalId, { item, resolve: (d) => finish(d, d.decision) });
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.events.emit({ type: 'pending', item });
    });

  /** A person's answer; refused when the approval is no longer pending or the card did not offer it. */
  answer(approvalId: string, decision: ApprovalDecision): Answered {
    const waiter = this.waiting.get(approvalId);
    if (!waiter) return { ok: false, why: 'gone' };
    const offered = waiter.item.choices ?? [{ decision: 'approve_once' }];
    if (decision.decision !== 'deny' && !offered.some((c) => c.decision === decision.decision))
      return { ok: false, why: 'not-offered' };
    waiter.resolve(decision);
    return { ok: true };
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
