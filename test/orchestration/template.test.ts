/**
 * Rule (docs/architecture.md#batches, docs/architecture.md#shortcuts): references to earlier
 * results are cut to their first 4 KB without splitting a character, a whole reference to a large
 * structured result becomes its cut text (a cut JSON value would not parse), and parameters and
 * results are substituted in one pass (text that came from a parameter is never read as a
 * placeholder).
 */
import { describe, expect, it } from 'vitest';
import { jsonSuccess, success } from '../../tools/core/result';
import { REFERENCE_LIMIT_BYTES } from '../../tools/orchestration';
import { referenceValue, renderTemplate, truncateHead } from '../../tools/orchestration/template';

describe('truncateHead', () => {
  it('never splits a multi-byte character at the cut', () => {
    const text = 'é'.repeat(3000); // 6000 bytes, 2 per character
    const cut = truncateHead(text, 4095);
    expect(cut.startsWith('é'.repeat(2047))).toBe(true);
    expect(cut).toBe(`${'é'.repeat(2047)}…[truncated: kept the first 4094 of 6000 bytes]`);
  });

  it('leaves text at the limit alone', () => {
    const text = 'a'.repeat(REFERENCE_LIMIT_BYTES);
    expect(truncateHead(text)).toBe(text);
  });
});

describe('referenceValue', () => {
  it('turns a large structured result into its cut JSON text', () => {
    const big = { rows: Array.from({ length: 2000 }, (_, i) => i) };
    const value = referenceValue(jsonSuccess(big));
    expect(typeof value).toBe('string');
    expect(value as string).toMatch(/^\{"rows":\[0,1,2,.*…\[truncated: kept the first 4096 of \d+ bytes\]$/s);
  });

  it('keeps a small structured result as the value', () => {
    expect(referenceValue(success('2 rows', [1, 2]))).toEqual([1, 2]);
  });
});

describe('renderTemplate', () => {
  it('substitutes parameters and results in one pass', () => {
    const params = new Map<string, string | number | boolean | undefined>([
      ['p', '{0} and {q}'],
      ['q', 'Q'],
    ]);
    const out = renderTemplate({ a: 'x {p} y', b: '{0}' }, { results: [success('R')], params });
    expect(out).toEqual({ a: 'x {0} and {q} y', b: 'R' });
  });
});
