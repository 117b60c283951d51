/**
 * ToolTraceRecorder (docs/architecture.md#traces): one span per attempt, kept in a bounded ring
 * buffer (default 200), streamed to listeners, exported as JSON and summarised as per-tool latency
 * histograms.
 * A span's duration is the run: time spent waiting for a person is kept apart (`personWaitMs`),
 * so the histograms show how long tools take, not how long people do.
 * `begin()` returns a handle; completing it a second time records nothing, so a racing timeout
 * and a late tool answer can never produce a phantom span.
 */
import { type Disposable, Emitter } from '../disposable';
import type { ToolErrorCode } from '../result';
import type { DecidedBy, SpanOutcome, TraceSpan } from '../trace-span';
import { type HistogramReport, ToolLatencyHistogram } from './latency-histogram';

export const DEFAULT_TRACE_CAPACITY = 200;

/**
 * What a span is begun with: the span's own fields that are known before the attempt ends
 * (`attempt` is 0 for a call refused before any attempt), and when it started, the recorder's
 * clock now when omitted.
 */
export type SpanStart = Pick<
  TraceSpan,
  'callId' | 'parentCallId' | 'toolId' | 'sessionId' | 'requesterKind' | 'attempt' | 'backoffMs' | 'argsDigest'
> & { startedAt?: number };

export interface SpanEnd {
  outcome: SpanOutcome;
  errorCode?: ToolErrorCode;
  errorSlug?: string;
  /** Already cleaned of argument text (cleanErrorText). */
  errorText?: string;
  /** Time within the span spent waiting for a person; not counted in its duration. */
  personWaitMs?: number;
  /** Who decided the approval that refused the call. */
  decidedBy?: DecidedBy | undefined;
}

export interface SpanHandle {
  readonly spanId: string;
  /** Records the span; returns it, or undefined when this handle was already completed. */
  complete(end: SpanEnd): TraceSpan | undefined;
}

export interface TraceRecorderOptions {
  capacity?: number;
  /** Milliseconds since the epoch, with sub-millisecond precision where available. */
  now?: () => number;
}

const ORIGIN = performance.timeOrigin;
const defaultNow = () => ORIGIN + performance.now();

export class ToolTraceRecorder {
  readonly capacity: number;
  private readonly ring: Array<TraceSpan | undefined>;
  private next = 0;
  private stored = 0;
  private spanCounter = 0;
  private readonly now: () => number;
  private readonly emitter = new Emitter<TraceSpan>();
  private readonly histograms = new Map<string, ToolLatencyHistogram>();

  constructor(options: TraceRecorderOptions = {}) {
    const capacity = options.capacity ?? DEFAULT_TRACE_CAPACITY;
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`trace capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
    this.ring = new Array<TraceSpan | undefined>(capacity);
    this.now = options.now ?? defaultNow;
  }

  begin(start: SpanStart): SpanHandle {
    return new Handle(this, `s${(++this.spanCounter).toString(36)}`, start, start.startedAt ?? this.now());
  }

  /** @internal Called by a handle, once. */
  finish(spanId: string, start: SpanStart, startedAt: number, end: SpanEnd): TraceSpan {
    const waited = end.personWaitMs ?? 0;
    const span: TraceSpan = {
      spanId,
      callId: start.callId,
      parentCallId: start.parentCallId,
      toolId: start.toolId,
      sessionId: start.sessionId,
      requesterKind: start.requesterKind,
      attempt: start.attempt,
      startedAt,
      durationMs: Math.max(0, this.now() - startedAt - waited),
      outcome: end.outcome,
      errorCode: end.errorCode,
      errorSlug: end.errorSlug,
      errorText: end.errorText,
      backoffMs: start.backoffMs,
      argsDigest: start.argsDigest,
    };
    if (waited > 0) span.personWaitMs = waited;
    if (end.decidedBy !== undefined) span.decidedBy = end.decidedBy;
    this.ring[this.next] = span;
    this.next = this.next + 1 === this.capacity ? 0 : this.next + 1;
    if (this.stored < this.capacity) this.stored++;
    let histogram = this.histograms.get(span.toolId);
    if (histogram === undefined) this.histograms.set(span.toolId, (histogram = new ToolLatencyHistogram()));
    histogram.add(span.durationMs, span.outcome, span.errorCode);
    if (this.emitter.size > 0) this.emitter.emit(span);
    return span;
  }

  /** Every span as it is recorded. */
  onSpan(listener: (span: TraceSpan) => void): Disposable {
    return this.emitter.on(listener);
  }

  /** The buffered spans, oldest first. */
  spans(filter?: { toolId?: string; callId?: string }): TraceSpan[] {
    const out: TraceSpan[] = [];
    const start = this.stored < this.capacity ? 0 : this.next;
    for (let i = 0; i < this.stored; i++) {
      const span = this.ring[(start + i) % this.capacity];
      if (span === undefined) continue;
      if (filter?.toolId !== undefined && span.toolId !== filter.toolId) continue;
      if (filter?.callId !== undefined && span.callId !== filter.callId) continue;
      out.push(span);
    }
    return out;
  }

  get size(): number {
    return this.stored;
  }

  exportJson(): string {
    return JSON.stringify({ exportedAt: this.now(), capacity: this.capacity, spans: this.spans() }, null, 2);
  }

  histogramReport(): HistogramReport {
    const tools = [...this.histograms.entries()].map(([toolId, h]) => h.report(toolId));
    tools.sort((a, b) => a.toolId.localeCompare(b.toolId));
    return { generatedAt: this.now(), tools };
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
    this.stored = 0;
    this.histograms.clear();
  }
}

class Handle implements SpanHandle {
  private done = false;

  constructor(
    private readonly recorder: ToolTraceRecorder,
    readonly spanId: string,
    private readonly start: SpanStart,
    private readonly startedAt: number,
  ) {}

  complete(end: SpanEnd): TraceSpan | undefined {
    if (this.done) return undefined;
    this.done = true;
    return this.recorder.finish(this.spanId, this.start, this.startedAt, end);
  }
}
