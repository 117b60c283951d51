/**
 * Rule: the Breakers page shows one row per tool. A tool's per-target breakers (`toolId@<digest>`)
 * join its row, which takes their worst state (OPEN, then HALF_OPEN, then CLOSED), counts its
 * targets and how many are in each state, and names the earliest probe; rows with an open breaker
 * come first. Breakers that never tripped stay out unless asked for, and a tool left with none has
 * no row. A target is named by its digest only, even when a view came from an event that carried
 * nothing but the key.
 */
import { describe, expect, it } from 'vitest';
import type { BreakerTransition, BreakerView } from '../../shared/contract';
import {
  describeGroup,
  groupBreakers,
  hasTargets,
  nextProbe,
  probeTime,
} from '../../renderer/src/pages/breakers/breaker-groups';
import { breakerTarget, breakerTool } from '../../renderer/src/pages/breakers/breaker-tool';

const tripped: BreakerTransition[] = [{ toolId: 'x', from: 'CLOSED', to: 'OPEN', at: 1_000, cause: 'five failures' }];

function view(key: string, over: Partial<BreakerView> = {}): BreakerView {
  const at = key.lastIndexOf('@');
  return {
    toolId: key,
    ...(at > 0 ? { target: key.slice(at + 1) } : {}),
    state: 'CLOSED',
    consecutiveFailures: 0,
    cooldownRemainingMs: 0,
    transitions: [],
    ...over,
  };
}

const views: BreakerView[] = [
  view('http_request@0a1b2c3d', { state: 'OPEN', consecutiveFailures: 5, probeAt: 40_000, transitions: tripped }),
  view('http_request@9f8e7d6c', { state: 'HALF_OPEN', consecutiveFailures: 5, transitions: tripped }),
  view('http_request@11112222', { consecutiveFailures: 2 }),
  view('http_request@33334444', { state: 'OPEN', consecutiveFailures: 6, probeAt: 35_000, transitions: tripped }),
  view('calculate', { state: 'HALF_OPEN', consecutiveFailures: 5, transitions: tripped }),
  view('web_fetch@55556666', { consecutiveFailures: 1 }),
];

describe('grouping breakers by tool', () => {
  it("puts a tool's per-target breakers in one row with the worst state and a count of targets", () => {
    const [http, calculate] = groupBreakers(views, false);
    expect(http).toMatchObject({ tool: 'http_request', worst: 'OPEN', targets: 3 });
    expect(http!.counts).toEqual({ OPEN: 2, HALF_OPEN: 1, CLOSED: 0 });
    expect(describeGroup(http!)).toBe('3 targets: 2 OPEN, 1 HALF_OPEN');
    expect(hasTargets(http!)).toBe(true);
    expect(calculate).toMatchObject({ tool: 'calculate', worst: 'HALF_OPEN', targets: 0 });
    expect(hasTargets(calculate!)).toBe(false);
  });

  it('orders the targets worst first, then by failures in a row', () => {
    const [http] = groupBreakers(views, false);
    expect(http!.breakers.map((b) => b.target)).toEqual(['33334444', '0a1b2c3d', '9f8e7d6c']);
  });

  it('puts rows with an open breaker first, and leaves out tools whose breakers never tripped', () => {
    expect(groupBreakers(views, false).map((g) => g.tool)).toEqual(['http_request', 'calculate']);
  });

  it('lists the breakers that never tripped, and their tools, when asked to', () => {
    const groups = groupBreakers(views, true);
    expect(groups.map((g) => g.tool)).toEqual(['http_request', 'calculate', 'web_fetch']);
    expect(groups[0]!.targets).toBe(4);
    expect(describeGroup(groups[0]!)).toBe('4 targets: 2 OPEN, 1 HALF_OPEN, 1 CLOSED');
    expect(describeGroup(groups[2]!)).toBe('1 target: 1 CLOSED');
  });

  it("names the earliest probe among the row's open breakers, and none when none is open", () => {
    const [http, calculate] = groupBreakers(views, false);
    expect(nextProbe(http!, 0)).toBe(35_000);
    expect(nextProbe(calculate!, 0)).toBeUndefined();
    expect(probeTime({ cooldownRemainingMs: 12_000 }, 100_000)).toBe(112_000);
  });

  it('says when a tool-wide breaker sits beside per-target ones (a key saved before targets)', () => {
    const mixed = groupBreakers(
      [view('mcp_call', { state: 'OPEN', transitions: tripped }), view('mcp_call@aaaabbbb', { transitions: tripped })],
      false,
    );
    expect(mixed).toHaveLength(1);
    expect(describeGroup(mixed[0]!)).toBe('1 target and the tool-wide breaker: 1 OPEN, 1 CLOSED');
  });

  it('reads the tool and target from the key of a view an event made, which has no target field', () => {
    const fromEvent = { toolId: 'http_request@0a1b2c3d' };
    expect(breakerTool(fromEvent)).toBe('http_request');
    expect(breakerTarget(fromEvent)).toBe('0a1b2c3d');
    expect(breakerTarget({ toolId: 'user@host' })).toBeUndefined();
    const grouped = groupBreakers([views[0]!, { ...views[3]!, target: undefined } as BreakerView], false);
    expect(grouped).toHaveLength(1);
    expect(grouped[0]!.targets).toBe(2);
  });
});
