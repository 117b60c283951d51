/**
 * The circuit breaker as a stage (circuit-breakers.ts): an open circuit refuses the call; an
 * admitted call's outcome (after all its attempts) is recorded, with the same slug its last span
 * has. A tool with a breaker scope gets one breaker per target (a phone, an origin), named by the
 * target's digest, so one dead target does not pause the tool for the others.
 */
import type { Tool } from '../../tool';
import { breakerKey } from '../breaker-key';
import type { BreakerLabels } from '../breaker-labels';
import { finalNote } from '../call-trace';
import type { CircuitBreakers } from '../circuit-breakers';
import type { Stage } from '../pipeline-call';

/**
 * The breaker a call belongs to: the tool's, or the tool's on the target its arguments name (whose
 * name only the person's in-memory labels keep).
 */
function breakerKeyOf(tool: Tool, args: unknown, labels: BreakerLabels | undefined): string {
  if (tool.breakerScope === undefined) return tool.id;
  let scope: string | undefined;
  try {
    scope = tool.breakerScope(args);
  } catch {
    scope = undefined;
  }
  const key = breakerKey(tool.id, scope);
  if (scope && labels !== undefined) labels.note(key, scope);
  return key;
}

export function breakerStage(breakers: CircuitBreakers, labels?: BreakerLabels): Stage {
  return async (c, next) => {
    const key = breakerKeyOf(c.tool, c.args, labels);
    const admission = breakers.admit(key);
    if (admission === 'refused') return breakers.refusal(key);
    const result = await next(c);
    if (result.ok) breakers.record(key, admission, undefined);
    else breakers.record(key, admission, result.error, finalNote(c, result).errorSlug);
    return result;
  };
}
