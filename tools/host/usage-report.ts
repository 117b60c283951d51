/**
 * Usage statistics for the UI, computed from durable spans so they survive a restart. Calls and
 * attempts are counted apart: a call is one request, whatever number of attempts it took; it is
 * classified by its last span (shared/call-classes.ts), so a person's denial, a caller's mistake
 * and a refusal by the breaker or limiter are never counted as the tool failing. Latency is the
 * run time of the attempts that ran: a refused call never ran, so its fraction of a millisecond
 * is not in the histogram.
 */
import { type CallClass, type ClassCounts, classifyCall, emptyClassCounts } from '../../shared/call-classes';
import type { UsageStats } from '../../shared/contract';
import { ToolLatencyHistogram } from '../core/trace/latency-histogram';
import type { TraceSpan } from '../core/trace-span';

const MINUTE = 60_000;

/** What the report reads of a span. */
export type UsageSpan = Pick<
  TraceSpan,
  | 'callId'
  | 'toolId'
  | 'attempt'
  | 'startedAt'
  | 'durationMs'
  | 'outcome'
  | 'errorCode'
  | 'errorSlug'
  | 'errorText'
  | 'decidedBy'
>;

interface CallSummary {
  toolId: string;
  firstStart: number;
  last: UsageSpan;
  ran: number;
}

/** One entry per call: when it started, its last span, how many attempts ran. */
export function summarizeCalls(spans: readonly UsageSpan[]): Map<string, CallSummary> {
  const calls = new Map<string, CallSummary>();
  for (const span of spans) {
    const ran = span.attempt >= 1 ? 1 : 0;
    const seen = calls.get(span.callId);
    if (!seen) {
      calls.set(span.callId, { toolId: span.toolId, firstStart: span.startedAt, last: span, ran });
      continue;
    }
    seen.firstStart = Math.min(seen.firstStart, span.startedAt);
    seen.ran += ran;
    const later =
      span.attempt > seen.last.attempt || (span.attempt === seen.last.attempt && span.startedAt > seen.last.startedAt);
    if (later) seen.last = span;
  }
  return calls;
}

interface ToolEntry {
  hist: ToolLatencyHistogram;
  calls: number;
  attempts: number;
  retries: number;
  outcomes: ClassCounts;
  perMinute: Map<number, ClassCounts & { calls: number }>;
  lastError?: UsageStats['lastError'];
}

/** The words of a failure: its cleaned text, else its slug; never the code said twice. */
export function failureWords(span: Pick<UsageSpan, 'errorCode' | 'errorSlug' | 'errorText'>): string {
  if (span.errorText) return span.errorText;
  const code = span.errorCode?.toLowerCase().replace(/_/g, '-');
  return span.errorSlug && span.errorSlug !== code ? span.errorSlug : 'no message was given';
}

export function usageFromSpans(spans: readonly UsageSpan[], now: number, minutes = 30): UsageStats[] {
  const byTool = new Map<string, ToolEntry>();
  const entryOf = (toolId: string): ToolEntry => {
    let entry = byTool.get(toolId);
    if (!entry) {
      entry = {
        hist: new ToolLatencyHistogram(),
        calls: 0,
        attempts: 0,
        retries: 0,
        outcomes: emptyClassCounts(),
        perMinute: new Map(),
      };
      byTool.set(toolId, entry);
    }
    return entry;
  };
  for (const span of spans) {
    if (span.attempt < 1) continue;
    const entry = entryOf(span.toolId);
    entry.attempts++;
    entry.hist.add(span.durationMs, span.outcome, span.errorCode);
  }
  const firstMinute = Math.floor(now / MINUTE) - minutes + 1;
  for (const [callId, call] of summarizeCalls(spans)) {
    const entry = entryOf(call.toolId);
    const kind: CallClass = classifyCall(call.last);
    entry.calls++;
    entry.retries += Math.max(0, call.ran - 1);
    entry.outcomes[kind]++;
    const minute = Math.floor(call.firstStart / MINUTE);
    if (minute >= firstMinute) {
      const m = entry.perMinute.get(minute) ?? { ...emptyClassCounts(), calls: 0 };
      m.calls++;
      m[kind]++;
      entry.perMinute.set(minute, m);
    }
    const at = call.last.startedAt;
    if (kind === 'toolFailed' && call.last.errorCode && (!entry.lastError || entry.lastError.at < at)) {
      entry.lastError = { code: call.last.errorCode, message: failureWords(call.last), at, callId };
    }
  }
  return [...byTool.entries()]
    .map(([toolId, e]) => {
      const r = e.hist.report(toolId);
      const perMinute: UsageStats['perMinute'] = [];
      for (let m = firstMinute; m < firstMinute + minutes; m++)
        perMinute.push({ minute: m * MINUTE, ...(e.perMinute.get(m) ?? { ...emptyClassCounts(), calls: 0 }) });
      const stats: UsageStats = {
        toolId,
        calls: e.calls,
        attempts: e.attempts,
        retries: e.retries,
        outcomes: e.outcomes,
        latencyMs: { min: r.minMs, mean: r.meanMs, p50: r.p50Ms, p95: r.p95Ms, p99: r.p99Ms, max: r.maxMs },
        buckets: r.buckets.map((b) => ({ le: b.leMs, count: b.count })),
        perMinute,
      };
      if (e.lastError) stats.lastError = e.lastError;
      return stats;
    })
    .sort((a, b) => a.toolId.localeCompare(b.toolId));
}
