/**
 * The rate limiter as a stage (rate-limiter.ts): over the tool's quota (the host's, else its run
 * policy's) the call is refused at once, never queued, so a runaway loop sees it immediately.
 */
import type { Stage } from '../pipeline-call';
import type { ToolRateLimiter } from '../rate-limiter';

export function rateLimitStage(limiter: ToolRateLimiter): Stage {
  return (c, next) => limiter.tryTake(c.tool.id, limiter.quotaFor(c.tool.id, c.policy.perMinute)) ?? next(c);
}
