/**
 * Rule: a call stopped at its CPU bound ends as TIMEOUT marked deterministic: the same arguments
 * would run past the bound again, so the pipeline never retries it and the circuit breaker does
 * not count it (one caller's hostile input must not open a tool's circuit for every session).
 */
import { describe, expect, it } from 'vitest';
import { countsAsBreakerFailure } from '../../tools/core/pipeline/circuit-breaker';
import { defaultRetryClassifier } from '../../tools/core/pipeline/retry';
import type { ToolError } from '../../tools/core/result';
import { regexExtract } from '../../tools/structured/regex-tools';
import { harness } from '../structured/harness';

describe('a call stopped at its CPU bound', () => {
  it('is a deterministic TIMEOUT: not retried, not counted by the breaker', async () => {
    const h = harness([regexExtract]);
    const e = await h.fails('regex_extract', { pattern: '(a+)+$', text: `${'a'.repeat(40)}!` }, 'TIMEOUT');
    expect(e.data).toEqual({ boundMs: 2000, deterministic: true, reason: 'cpu-bound' });
    expect(defaultRetryClassifier.isRetryable(e as ToolError)).toBe(false);
    expect(countsAsBreakerFailure(e as ToolError)).toBe(false);
  });

  it('differs from a timeout that may be transient, which is retried and counted', () => {
    const transient = { code: 'TIMEOUT' as const, message: 'No response in time.', hint: 'Retry.' };
    expect(defaultRetryClassifier.isRetryable(transient)).toBe(true);
    expect(countsAsBreakerFailure(transient)).toBe(true);
  });
});
