/**
 * The environment gate as a stage (environment-gate.ts): a call whose target is known to be in a
 * state it cannot work in (a phone offline, its screen off) is refused with the rule's hint.
 */
import type { EnvironmentGate } from '../environment-gate';
import type { Stage } from '../pipeline-call';

export function environmentStage(gate: EnvironmentGate): Stage {
  return (c, next) => gate.check(c.tool, c.args) ?? next(c);
}
