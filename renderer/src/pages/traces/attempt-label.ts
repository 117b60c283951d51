/**
 * How an attempt number reads in the traces: attempt 0 is the span of a call a stage stopped before
 * the tool's first attempt (validation, approval, limiter, breaker), so it says "not run", not "0".
 */
export const NOT_RUN_TITLE = 'Not run: refused before the first attempt (validation, approval, limiter or breaker)';

export function attemptLabel(attempt: number): string {
  return attempt === 0 ? 'not run' : String(attempt);
}
