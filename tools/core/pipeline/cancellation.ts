/**
 * The result of a call its caller cancelled (ToolCall.signal aborted). Cancellation is not among
 * the nine codes, so it travels as EXECUTION_FAILED marked `data.cancelled`: EXECUTION_FAILED is
 * what a v2 agent already treats as "this step did not happen", the hint tells the model not to
 * replay it, and the marker lets the retry classifier, the breaker and the trace treat it as the
 * caller's decision rather than the tool's failure. (UNKNOWN would invite a blind retry.)
 */
import { type ToolFailure, type ToolResult, failure } from '../result';

export const CANCELLED_HINT = 'The caller cancelled this call; do not retry it unless you are asked to.';

export function cancelledResult(
  toolId: string,
  when: 'before it ran' | 'while waiting for approval' | 'while it was running' | 'before its retry',
): ToolFailure {
  return failure('EXECUTION_FAILED', `The call to '${toolId}' was cancelled ${when}.`, {
    hint: CANCELLED_HINT,
    data: { cancelled: true, slug: 'cancelled' },
  });
}

export function isCancelledResult(result: ToolResult): boolean {
  return !result.ok && result.error.data?.cancelled === true;
}
