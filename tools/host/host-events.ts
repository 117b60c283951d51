/**
 * One stream of HostEvents for the UI, fed by the pipeline (spans, breaker transitions), the
 * approval queue and the registry.
 */
import type { HostEvent } from '../../shared/contract';
import { type Disposable, Emitter } from '../core/disposable';
import type { BreakerTransition, Pipeline } from '../core/pipeline';
import type { ToolRegistry } from '../core/registry';
import type { ApprovalQueue } from './approval-queue';
import { pendingView } from './approval-api';
import { upperState } from './host-api';

export class HostEvents {
  private readonly emitter = new Emitter<HostEvent>();
  private readonly subscriptions: Disposable[];
  private spanCount = 0;

  /** `transitions`: the breaker transitions as the host records them (BreakerFeed); the pipeline's own by default. */
  constructor(
    pipeline: Pipeline,
    approvals: ApprovalQueue,
    registry: ToolRegistry,
    transitions: (listener: (t: BreakerTransition) => void) => Disposable = (l) =>
      pipeline.events.onBreakerTransition(l),
  ) {
    this.subscriptions = [
      pipeline.events.onSpan((span) => this.emit({ type: 'span', span, seq: ++this.spanCount })),
      transitions((t) =>
        this.emit({ type: 'breaker', transition: { ...t, from: upperState(t.from), to: upperState(t.to) } }),
      ),
      approvals.onEvent((e) =>
        this.emit(
          e.type === 'pending'
            ? { type: 'approval-pending', approval: pendingView(e.item) }
            : { type: 'approval-decided', approvalId: e.approvalId, decision: e.decision },
        ),
      ),
      pipeline.events.onApprovalDecision((e) =>
        this.emit({ type: 'approval-audited', toolId: e.toolId, decision: e.decision }),
      ),
      registry.onChange(() => this.emit({ type: 'tools-changed' })),
    ];
  }

  /**
   * The number of the newest span event. The span store takes each span in an earlier listener of
   * the same synchronous dispatch, so every span up to this number is in the store already.
   */
  spanSeq(): number {
    return this.spanCount;
  }

  emit(event: HostEvent): void {
    this.emitter.emit(event);
  }

  on(listener: (e: HostEvent) => void): Disposable {
    return this.emitter.on(listener);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
