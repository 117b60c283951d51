/** Host-wide activity derived from the per-tool usage statistics and breaker views. */
import type { BreakerView, UsageStats } from '../../../../shared/contract';
import { breakerTool } from '../breakers/breaker-tool';

export interface MinutePoint {
  minute: number;
  calls: number;
  failures: number;
}

/** Calls and failures per minute summed over all tools, oldest first. */
export function totalPerMinute(stats: readonly UsageStats[]): MinutePoint[] {
  const byMinute = new Map<number, MinutePoint>();
  for (const s of stats) {
    for (const m of s.perMinute) {
      const p = byMinute.get(m.minute) ?? { minute: m.minute, calls: 0, failures: 0 };
      p.calls += m.calls;
      p.failures += m.failures;
      byMinute.set(m.minute, p);
    }
  }
  return [...byMinute.values()].sort((a, b) => a.minute - b.minute);
}

export interface FailingTool {
  toolId: string;
  breaker?: BreakerView['state'];
  recentFailures: number;
  lastError?: string;
}

/**
 * Tools failing right now: a breaker that is not closed, or failures within the last `windowMs`.
 */
export function failingTools(
  stats: readonly UsageStats[],
  breakers: readonly BreakerView[],
  now: number,
  windowMs = 5 * 60_000,
): FailingTool[] {
  const out = new Map<string, FailingTool>();
  // A tool with breakers per target is one entry, whichever of its targets are paused.
  for (const b of breakers) {
    if (b.state !== 'CLOSED')
      out.set(breakerTool(b), {
        toolId: breakerTool(b),
        breaker: b.state,
        recentFailures: 0,
        ...(b.lastError ? { lastError: b.lastError } : {}),
      });
  }
  for (const s of stats) {
    const recent = s.perMinute.filter((m) => m.minute + 60_000 > now - windowMs).reduce((n, m) => n + m.failures, 0);
    if (recent === 0) continue;
    const entry = out.get(s.toolId) ?? { toolId: s.toolId, recentFailures: 0 };
    entry.recentFailures = recent;
    if (s.lastError) entry.lastError = `${s.lastError.code}: ${s.lastError.message}`;
    out.set(s.toolId, entry);
  }
  return [...out.values()].sort(
    (a, b) => Number(b.breaker !== undefined) - Number(a.breaker !== undefined) || b.recentFailures - a.recentFailures,
  );
}
