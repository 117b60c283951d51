/**
 * Keeps the usage statistics current between refetches: each incoming span is folded into its
 * tool's counts, histogram bucket and per-minute series. Percentiles are re-estimated from the
 * buckets by linear interpolation, the same estimate the host makes, so a refetch does not jump.
 */
import type { Span, UsageReport, UsageStats } from '../../../shared/contract';

const MINUTE = 60_000;

type Buckets = UsageStats['buckets'];

export function bucketIndexFor(buckets: Buckets, durationMs: number): number {
  const i = buckets.findIndex((b) => b.le === null || durationMs <= b.le);
  return i === -1 ? buckets.length - 1 : i;
}

/** The p-quantile from bucket counts (Prometheus histogram_quantile), clamped to [min, max]. */
export function estimatePercentile(buckets: Buckets, p: number, min: number, max: number): number {
  const total = buckets.reduce((n, b) => n + b.count, 0);
  if (total === 0) return 0;
  const rank = p * total;
  let below = 0;
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i]!;
    if (b.count > 0 && below + b.count >= rank) {
      const lower = i === 0 ? 0 : (buckets[i - 1]!.le ?? max);
      const upper = b.le ?? max;
      const estimate = lower + ((upper - lower) * (rank - below)) / b.count;
      return Math.min(max, Math.max(min, estimate));
    }
    below += b.count;
  }
  return max;
}

function addToMinutes(perMinute: UsageStats['perMinute'], span: Span): UsageStats['perMinute'] {
  const minute = Math.floor(span.startedAt / MINUTE) * MINUTE;
  const failed = span.outcome !== 'success' ? 1 : 0;
  const series = perMinute.slice();
  const last = series[series.length - 1];
  if (last && minute < last.minute) {
    const at = series.findIndex((m) => m.minute === minute);
    if (at !== -1) series[at] = { minute, calls: series[at]!.calls + 1, failures: series[at]!.failures + failed };
    return series;
  }
  if (last && minute === last.minute) {
    series[series.length - 1] = { minute, calls: last.calls + 1, failures: last.failures + failed };
    return series;
  }
  // A new minute: fill the silent minutes in between, keep the window's length.
  const length = Math.max(series.length, 1);
  for (let m = last ? last.minute + MINUTE : minute; m < minute; m += MINUTE)
    series.push({ minute: m, calls: 0, failures: 0 });
  series.push({ minute, calls: 1, failures: failed });
  return series.slice(-length);
}

function foldSpan(stats: UsageStats, span: Span): UsageStats {
  const buckets = stats.buckets.slice();
  const bi = bucketIndexFor(buckets, span.durationMs);
  if (buckets[bi]) buckets[bi] = { ...buckets[bi]!, count: buckets[bi]!.count + 1 };
  const count = stats.count + 1;
  const min = stats.count === 0 ? span.durationMs : Math.min(stats.latencyMs.min, span.durationMs);
  const max = Math.max(stats.latencyMs.max, span.durationMs);
  const mean = (stats.latencyMs.mean * stats.count + span.durationMs) / count;
  const next: UsageStats = {
    ...stats,
    count,
    successes: stats.successes + (span.outcome === 'success' ? 1 : 0),
    failures: stats.failures + (span.outcome === 'success' ? 0 : 1),
    buckets,
    latencyMs: {
      min,
      max,
      mean,
      p50: estimatePercentile(buckets, 0.5, min, max),
      p95: estimatePercentile(buckets, 0.95, min, max),
      p99: estimatePercentile(buckets, 0.99, min, max),
    },
    perMinute: addToMinutes(stats.perMinute, span),
  };
  if (span.outcome !== 'success' && span.errorCode && (!stats.lastError || stats.lastError.at <= span.startedAt)) {
    next.lastError = {
      code: span.errorCode,
      message: span.errorText || span.errorSlug || span.errorCode,
      at: span.startedAt,
    };
  }
  return next;
}

function emptyStatsLike(template: UsageStats, toolId: string): UsageStats {
  return {
    toolId,
    count: 0,
    successes: 0,
    failures: 0,
    latencyMs: { min: 0, mean: 0, p50: 0, p95: 0, p99: 0, max: 0 },
    buckets: template.buckets.map((b) => ({ le: b.le, count: 0 })),
    perMinute: template.perMinute.map((m) => ({ minute: m.minute, calls: 0, failures: 0 })),
  };
}

/**
 * Folds `spans` into `stats`. A tool seen for the first time borrows the bucket bounds of another
 * tool; with no tool to borrow from, `complete` is false and the caller should refetch.
 */
export function applySpansToUsage(
  stats: readonly UsageStats[],
  spans: readonly Span[],
): { stats: UsageStats[]; complete: boolean } {
  const byTool = new Map(stats.map((s) => [s.toolId, s]));
  let complete = true;
  for (const span of spans) {
    let current = byTool.get(span.toolId);
    if (!current) {
      const template = stats[0] ?? byTool.values().next().value;
      if (!template) {
        complete = false;
        continue;
      }
      current = emptyStatsLike(template, span.toolId);
    }
    byTool.set(span.toolId, foldSpan(current, span));
  }
  return { stats: [...byTool.values()].sort((a, b) => a.toolId.localeCompare(b.toolId)), complete };
}

/** A span as the host's event stream delivers it: with its sequence number. */
export interface NumberedSpan {
  seq: number;
  span: Span;
}

/**
 * Folds into `report` exactly the spans it does not include yet (numbered above its watermark) and
 * moves the watermark. A span event that arrives after a report already counting it is skipped, so
 * a refetch racing the live stream never counts a call twice.
 */
export function foldNewSpans(
  report: UsageReport,
  spans: readonly NumberedSpan[],
): { report: UsageReport; complete: boolean } {
  const fresh = spans.filter((s) => s.seq > report.throughSeq);
  if (fresh.length === 0) return { report, complete: true };
  const folded = applySpansToUsage(
    report.stats,
    fresh.map((s) => s.span),
  );
  const throughSeq = fresh.reduce((max, s) => Math.max(max, s.seq), report.throughSeq);
  return { report: { stats: folded.stats, throughSeq }, complete: folded.complete };
}
