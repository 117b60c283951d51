/**
 * Retry (docs/architecture.md#timeout-and-retry): the attempts of one admitted call, each traced
 * as its own span, until one succeeds, one is terminal, or the run policy's retries are spent.
 * Between attempts a full-jitter backoff; a cancellation during it ends the call.
 */
import { thrownToResult } from '../../executor';
import type { ToolResult } from '../../result';
import type { ToolTraceRecorder } from '../../trace/trace-recorder';
import { completeAttempt, noteOf, spanStart } from '../call-trace';
import { cancelledResult } from '../cancellation';
import { type Clock, type RandomSource, sleep } from '../clock';
import type { PersonWaits } from '../person-waits';
import type { Stage } from '../pipeline-call';
import { type BackoffOptions, type RetryClassifier, fullJitterDelay, shouldRetry } from '../retry';

export interface RetryStageOptions {
  clock: Clock;
  random: RandomSource;
  backoff: BackoffOptions;
  classifier: RetryClassifier;
  trace: ToolTraceRecorder | undefined;
  /** Where a running call is found when a person is asked from inside it. */
  waits: PersonWaits | undefined;
}

export function retryStage(options: RetryStageOptions): Stage {
  const { clock, random, backoff, classifier, trace, waits } = options;
  return async (c, next) => {
    const { tool, policy } = c;
    const signal = c.call.signal;
    let backoffMs = 0;
    let result: ToolResult;
    waits?.enter(c);
    try {
      for (let attempt = 1; ; attempt++) {
        // The first attempt's span begins with the call when a person was waited for, so it holds the wait.
        const startedAt = attempt === 1 && c.attemptWaitMs > 0 ? c.started : undefined;
        const handle =
          c.span !== undefined ? trace?.begin(spanStart(c.span, attempt, backoffMs, startedAt)) : undefined;
        c.attempt = attempt;
        result = await next(c);
        c.note = result.ok ? undefined : noteOf(c, result.error);
        c.noted = result;
        if (handle !== undefined) completeAttempt(handle, c, result);
        c.attemptWaitMs = 0;
        if (result.ok || !shouldRetry(tool, result.error, attempt, policy.maxRetries, classifier)) break;
        backoffMs = fullJitterDelay(attempt - 1, backoff, random);
        const waited = backoffMs > 0 ? await sleep(clock, backoffMs, signal) : !signal?.aborted;
        if (!waited) {
          result = cancelledResult(tool.id, 'before its retry');
          break;
        }
      }
    } catch (e) {
      result = thrownToResult(tool.id, e);
    } finally {
      c.ended = true;
      waits?.leave(c);
    }
    return result;
  };
}
