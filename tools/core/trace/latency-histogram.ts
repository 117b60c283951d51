/**
 * Per-tool latency histograms over every span recorded since start (or the last clear): fixed
 * bucket bounds, so memory is constant per tool however many calls are made. Percentiles are
 * estimated from the buckets by linear interpolation (as Prometheus' histogram_quantile does),
 * clamped to the smallest and largest duration actually seen.
 */
import type { ToolErrorCode } from '../result';
import type { SpanOutcome } from '../trace-span';

/** Upper bounds in ms; the last bucket (above the last bound) is open. */
export const LATENCY_BUCKETS_MS: readonly number[] = [
  1, 2, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 120_000,
];

export interface LatencyBucket {
  /** Upper bound in ms, or null for the open last bucket. */
  leMs: number | null;
  count: number;
}

export interface ToolLatencyReport {
  toolId: string;
  spans: number;
  successes: number;
  errors: number;
  cancelled: number;
  /** successes / spans, 0 when there are none. */
  successRate: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  meanMs: number;
  minMs: number;
  maxMs: number;
  buckets: LatencyBucket[];
  errorsByCode: Partial<Record<ToolErrorCode, number>>;
}

export interface HistogramReport {
  generatedAt: number;
  tools: ToolLatencyReport[];
}

export class ToolLatencyHistogram {
  private readonly counts = new Float64Array(LATENCY_BUCKETS_MS.length + 1);
  private spans = 0;
  private successes = 0;
  private errors = 0;
  private cancelled = 0;
  private totalMs = 0;
  private minMs = Infinity;
  private maxMs = 0;
  private readonly errorsByCode: Partial<Record<ToolErrorCode, number>> = {};

  add(durationMs: number, outcome: SpanOutcome, code: ToolErrorCode | undefined): void {
    this.spans++;
    if (outcome === 'success') this.successes++;
    else if (outcome === 'cancelled') this.cancelled++;
    else this.errors++;
    if (code !== undefined) this.errorsByCode[code] = (this.errorsByCode[code] ?? 0) + 1;
    this.totalMs += durationMs;
    if (durationMs < this.minMs) this.minMs = durationMs;
    if (durationMs > this.maxMs) this.maxMs = durationMs;
    this.counts[bucketIndex(durationMs)]!++;
  }

  report(toolId: string): ToolLatencyReport {
    return {
      toolId,
      spans: this.spans,
      successes: this.successes,
      errors: this.errors,
      cancelled: this.cancelled,
      successRate: this.spans ? this.successes / this.spans : 0,
      p50Ms: this.percentile(0.5),
      p95Ms: this.percentile(0.95),
      p99Ms: this.percentile(0.99),
      meanMs: this.spans ? this.totalMs / this.spans : 0,
      minMs: this.spans ? this.minMs : 0,
      maxMs: this.maxMs,
      buckets: Array.from(this.counts, (count, i) => ({ leMs: LATENCY_BUCKETS_MS[i] ?? null, count })),
      errorsByCode: { ...this.errorsByCode },
    };
  }

  private percentile(p: number): number {
    if (this.spans === 0) return 0;
    const rank = p * this.spans;
    let below = 0;
    for (let i = 0; i < this.counts.length; i++) {
      const count = this.counts[i]!;
      if (count > 0 && below + count >= rank) {
        const lower = i === 0 ? 0 : LATENCY_BUCKETS_MS[i - 1]!;
        const upper = LATENCY_BUCKETS_MS[i] ?? this.maxMs;
        const estimate = lower + ((upper - lower) * (rank - below)) / count;
        return Math.min(this.maxMs, Math.max(this.minMs, estimate));
      }
      below += count;
    }
    return this.maxMs;
  }
}

function bucketIndex(durationMs: number): number {
  let i = 0;
  while (i < LATENCY_BUCKETS_MS.length && durationMs > LATENCY_BUCKETS_MS[i]!) i++;
  return i;
}
