/**
 * Retry decisions (docs/architecture.md#timeout-and-retry, RetryClassifier, p-retry's AbortError,
 * LangGraph's retry_on): gate refusals, argument and permission errors, open circuits, rate limits,
 * cancellations and failures a tool marks `data.deterministic` (a computation that ran past its CPU
 * bound) are terminal (sending the same payload again cannot help), and so are failures it marks
 * `data.retryable: false` (a notice the caller must read, such as "the browser was closed and its
 * tabs are lost", which a replay would answer as if nothing happened); timeouts, execution and
 * unknown errors may be transient. Whatever the classifier says, only retry-safe tools (read-only or
 * idempotent) are ever retried, because replaying a destructive call that already took effect loses
 * data.
 */
import { retrySafe } from '../annotations';
import type { ToolError, ToolErrorCode } from '../result';
import type { Tool } from '../tool';
import type { RandomSource } from './clock';

export interface RetryClassifier {
  isRetryable(error: ToolError): boolean;
}

const RETRYABLE: ReadonlySet<ToolErrorCode> = new Set(['TIMEOUT', 'EXECUTION_FAILED', 'UNKNOWN']);

export const defaultRetryClassifier: RetryClassifier = {
  isRetryable: (error) =>
    RETRYABLE.has(error.code) &&
    error.data?.cancelled !== true &&
    error.data?.gate === undefined &&
    error.data?.deterministic !== true &&
    error.data?.retryable !== false,
};

export interface BackoffOptions {
  /** Base of the exponential; default 200 ms. */
  baseMs: number;
  /** Cap of the window before jitter; default 10 s. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: Readonly<BackoffOptions> = { baseMs: 200, maxMs: 10_000 };

/**
 * Full-jitter exponential backoff (AWS): a uniform draw from [0, min(max, base·2^n)), where n is
 * the retry's index from 0 (the first retry waits up to base, the second up to 2·base, …).
 */
export function fullJitterDelay(retryIndex: number, backoff: BackoffOptions, random: RandomSource): number {
  const window = Math.min(backoff.maxMs, backoff.baseMs * 2 ** retryIndex);
  return Math.floor(random() * window);
}

/** Whether a failed attempt may be followed by another. */
export function shouldRetry(
  tool: Pick<Tool, 'metadata'>,
  error: ToolError,
  attempt: number,
  maxRetries: number,
  classifier: RetryClassifier,
): boolean {
  return attempt <= maxRetries && retrySafe(tool.metadata.annotations) && classifier.isRetryable(error);
}
