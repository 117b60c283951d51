/**
 * The Breakers page's rows: one per tool, holding the tool's breakers (one per target for tools
 * that keep them per target, else the one tool-wide breaker), with the worst state among them,
 * how many are in each state, and when the next probe is admitted. Breakers that never tripped
 * are left out unless asked for; a tool none of whose breakers is left has no row.
 */
import type { BreakerView } from '../../../../shared/contract';
import { plural } from '../../../../shared/call-classes';
import { breakerTarget, breakerTool } from './breaker-tool';

export type BreakerState = BreakerView['state'];

export interface BreakerGroup {
  tool: string;
  /** OPEN before HALF_OPEN before CLOSED. */
  worst: BreakerState;
  /** Worst first, then most failures, then by target. */
  breakers: BreakerView[];
  /** Breakers of single targets (the rest, if any, is the tool-wide one). */
  targets: number;
  /** How many are OPEN, HALF_OPEN and CLOSED. */
  counts: Record<BreakerState, number>;
}

const ORDER: Record<BreakerState, number> = { OPEN: 0, HALF_OPEN: 1, CLOSED: 2 };

/** Never opened: closed now and no transition to OPEN on record (failures may have been counted). */
export function neverTripped(v: Pick<BreakerView, 'state' | 'transitions'>): boolean {
  return v.state === 'CLOSED' && !v.transitions.some((t) => t.to === 'OPEN');
}

const byConcern = (a: BreakerView, b: BreakerView) =>
  ORDER[a.state] - ORDER[b.state] ||
  b.consecutiveFailures - a.consecutiveFailures ||
  (breakerTarget(a) ?? '').localeCompare(breakerTarget(b) ?? '');

export function groupBreakers(views: readonly BreakerView[], showQuiet: boolean): BreakerGroup[] {
  const byTool = new Map<string, BreakerView[]>();
  for (const v of views) {
    if (!showQuiet && neverTripped(v)) continue;
    const tool = breakerTool(v);
    byTool.set(tool, [...(byTool.get(tool) ?? []), v]);
  }
  const groups = [...byTool].map(([tool, list]): BreakerGroup => {
    const breakers = list.sort(byConcern);
    const counts: Record<BreakerState, number> = { OPEN: 0, HALF_OPEN: 0, CLOSED: 0 };
    for (const b of breakers) counts[b.state]++;
    return {
      tool,
      worst: breakers[0]!.state,
      breakers,
      targets: breakers.filter((b) => breakerTarget(b) !== undefined).length,
      counts,
    };
  });
  const failures = (g: BreakerGroup) => g.breakers.reduce((n, b) => n + b.consecutiveFailures, 0);
  return groups.sort(
    (a, b) =>
      ORDER[a.worst] - ORDER[b.worst] ||
      b.counts.OPEN - a.counts.OPEN ||
      failures(b) - failures(a) ||
      a.tool.localeCompare(b.tool),
  );
}

/** Whether the row shows its targets (else the tool-wide breaker is the row itself). */
export function hasTargets(group: BreakerGroup): boolean {
  return group.targets > 0;
}

/** "2 targets: 1 OPEN, 1 CLOSED" (states with none left out). */
export function describeGroup(group: BreakerGroup): string {
  const states = (['OPEN', 'HALF_OPEN', 'CLOSED'] as const)
    .filter((s) => group.counts[s] > 0)
    .map((s) => `${group.counts[s]} ${s}`)
    .join(', ');
  const whole = group.breakers.length - group.targets;
  const what = `${plural(group.targets, 'target')}${whole > 0 ? ' and the tool-wide breaker' : ''}`;
  return `${what}: ${states}`;
}

/** When an open breaker's probe is admitted: the host's time, else the cooldown left when the views were fetched. */
export function probeTime(view: Pick<BreakerView, 'probeAt' | 'cooldownRemainingMs'>, fetchedAt: number): number {
  return view.probeAt ?? fetchedAt + view.cooldownRemainingMs;
}

/** The earliest probe among the group's open breakers, or undefined when none is open. */
export function nextProbe(group: BreakerGroup, fetchedAt: number): number | undefined {
  const times = group.breakers.filter((b) => b.state === 'OPEN').map((b) => probeTime(b, fetchedAt));
  return times.length > 0 ? Math.min(...times) : undefined;
}
