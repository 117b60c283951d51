/** Host-wide activity derived from the per-tool usage statistics and breaker views. */
import { type ClassCounts, emptyClassCounts } from '../../../../shared/call-classes';
import type { BreakerView, UsageStats } from '../../../../shared/contract';
import { CALL_CLASSES } from '../../components/call-classes-view';
import { breakerTool } from '../breakers/breaker-tool';

export type MinutePoint = ClassCounts & { minute: number; calls: number };

/** Calls per minute summed over all tools, by how they ended, oldest first. */
export function totalPerMinute(stats: readonly UsageStats[]): MinutePoint[] {
  const byMinute = new Map<number, MinutePoint>();
  for (const s of stats) {
    for (const m of s.perMinute) {
      const p = byMinute.get(m.minute) ?? { minute: m.minute, calls: 0, ...emptyClassCounts() };
      p.calls += m.calls;
      for (const c of CALL_CLASSES) p[c] += m[c];
      byMinute.set(m.minute, p);
    }
  }
  return [...byMinute.values()].sort((a, b) => a.minute - b.minute);
}

/** The classes of the calls in `points`, added up. */
export function sumCounts(points: readonly ClassCounts[]): ClassCounts {
  const total = emptyClassCounts();
  for (const p of points) for (const c of CALL_CLASSES) total[c] += p[c];
  return total;
}

export interface FailingTool {
  toolId: string;
  breaker?: BreakerView['state'];
  /** Calls the tool itself failed within the window. */
  toolFailures: number;
  /** Calls of the tool within the window. */
  calls: number;
  /** The last call the tool itself failed: its code and cleaned error text. */
  lastError?: { code: string; message: string; at: number; callId: string };
  /** What an open breaker last saw (code and slug), for a paused tool with no failed call in the window. */
  breakerError?: string;
}

/**
 * Tools failing right now: a breaker that is not closed, or calls the tool itself failed within
 * the last `windowMs`. A person's denials, the caller's mistakes and refusals are not the tool
 * failing, so they never put a tool here.
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
    if (b.state === 'CLOSED') continue;
    const toolId = breakerTool(b);
    out.set(toolId, {
      toolId,
      breaker: b.state,
      toolFailures: 0,
      calls: 0,
      ...(b.lastError ? { breakerError: b.lastError } : {}),
    });
  }
  for (const s of stats) {
    const recent = s.perMinute.filter((m) => m.minute + 60_000 > now - windowMs);
    const toolFailures = recent.reduce((n, m) => n + m.toolFailed, 0);
    const entry = out.get(s.toolId);
    if (toolFailures === 0 && !entry) continue;
    const next: FailingTool = entry ?? { toolId: s.toolId, toolFailures: 0, calls: 0 };
    next.toolFailures = toolFailures;
    next.calls = recent.reduce((n, m) => n + m.calls, 0);
    if (s.lastError) next.lastError = s.lastError;
    out.set(s.toolId, next);
  }
  return [...out.values()].sort(
    (a, b) => Number(b.breaker !== undefined) - Number(a.breaker !== undefined) || b.toolFailures - a.toolFailures,
  );
}
