/**
 * The environment gate as a stage (environment-gate.ts): a call whose target is known to be in a
 * state it cannot work in (a phone offline, its screen off) is refused with the rule's hint. A
 * reading still being taken that its rules decide on is waited for first.
 */
import type { EnvironmentGate } from '../environment-gate';
import type { Stage } from '../pipeline-call';

export function environmentStage(gate: EnvironmentGate): Stage {
  return (c, next) => {
    const waiting = gate.pendingFor(c.tool, c.args);
    if (waiting === undefined) return gate.check(c.tool, c.args) ?? next(c);
    return waiting.then(() => gate.check(c.tool, c.args) ?? next(c));
  };
}
