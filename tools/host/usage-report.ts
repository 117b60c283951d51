/**
 * Usage statistics for the UI, computed from durable spans so they survive a restart: per tool,
 * counts, latency percentiles and histogram buckets, calls and failures per minute. One pass over
 * the spans; the histogram keeps constant memory per tool.
 */
import type { UsageStats } from '../../shared/contract';
import { ToolLatencyHistogram } from '../core/trace/latency-histogram';
import type { TraceSpan } from '../core/trace-span';

const MINUTE = 60_000;

export function usageFromSpans(spans: readonly TraceSpan[], now: number, minutes = 30): UsageStats[] {
  const byTool = new Map<
    string,
    {
      hist: ToolLatencyHistogram;
      perMinute: Map<number, { calls: number; failures: number }>;
      lastError?: UsageStats['lastError'];
    }
  >();
  const firstMinute = Math.floor(now / MINUTE) - minutes + 1;
  for (const span of spans) {
    let entry = byTool.get(span.toolId);
    if (!entry) byTool.set(span.toolId, (entry = { hist: new ToolLatencyHistogram(), perMinute: new Map() }));
    entry.hist.add(span.durationMs, span.outcome, span.errorCode);
    const minute = Math.floor(span.startedAt / MINUTE);
    if (minute >= firstMinute) {
      const m = entry.perMinute.get(minute) ?? { calls: 0, failures: 0 };
      m.calls++;
      if (span.outcome !== 'success') m.failures++;
      entry.perMinute.set(minute, m);
    }
    if (span.outcome !== 'success' && span.errorCode && (!entry.lastError || entry.lastError.at < span.startedAt)) {
      entry.lastError = {
        code: span.errorCode,
        message: span.errorText || span.errorSlug || span.errorCode,
        at: span.startedAt,
      };
    }
  }
  return [...byTool.entries()]
    .map(([toolId, e]) => {
      const r = e.hist.report(toolId);
      const perMinute = [];
      for (let m = firstMinute; m < firstMinute + minutes; m++)
        perMinute.push({ minute: m * MINUTE, ...(e.perMinute.get(m) ?? { calls: 0, failures: 0 }) });
      const stats: UsageStats = {
        toolId,
        count: r.spans,
        successes: r.successes,
        failures: r.errors + r.cancelled,
        latencyMs: { min: r.minMs, mean: r.meanMs, p50: r.p50Ms, p95: r.p95Ms, p99: r.p99Ms, max: r.maxMs },
        buckets: r.buckets.map((b) => ({ le: b.leMs, count: b.count })),
        perMinute,
      };
      if (e.lastError) stats.lastError = e.lastError;
      return stats;
    })
    .sort((a, b) => a.toolId.localeCompare(b.toolId));
}
