/**
 * Rule: every failure is a result with one of nine codes, a fix hint the model can act on, and the
 * `Error: …` string form string-based agents parse. These are the exact words the model reads.
 */
import { describe, expect, it } from 'vitest';
import {
  ERROR_HINTS,
  TOOL_ERROR_CODES,
  ToolCallError,
  failure,
  imageSuccess,
  isToolCallError,
  jsonSuccess,
  normalizeResult,
  renderResult,
  success,
} from '../../tools/core/result';

describe('ToolResult rendering', () => {
  it('pins the rendered text of every error code', () => {
    const rendered = Object.fromEntries(
      TOOL_ERROR_CODES.map((code) => [code, renderResult(failure(code, 'something happened'))]),
    );
    expect(rendered).toEqual({
      INVALID_ARGUMENT: 'Error: INVALID_ARGUMENT: something happened\nHint: Fix the arguments and retry.',
      PERMISSION_DENIED:
        'Error: PERMISSION_DENIED: something happened\nHint: Do not retry this call; change your approach.',
      NOT_FOUND:
        'Error: NOT_FOUND: something happened\nHint: Check the name or ' +
        'reference; look up what exists, then retry with one of those.',
      TIMEOUT:
        'Error: TIMEOUT: something happened\nHint: The tool did not finish in time; retry once with a smaller ' +
        'request, or check that the target responds.',
      RATE_LIMITED:
        'Error: RATE_LIMITED: something happened\nHint: Too many calls ' +
        'to this tool; wait until a token is back before calling it again.',
      CIRCUIT_OPEN:
        'Error: CIRCUIT_OPEN: something happened\nHint: This tool has been failing; do not retry it now. Use ' +
        'another approach or wait for the probe.',
      EXECUTION_FAILED:
        'Error: EXECUTION_FAILED: something happened\nHint: The tool failed while running; read the message, ' +
        'adjust, and retry only if the cause was transient.',
      UNSUPPORTED:
        'Error: UNSUPPORTED: something happened\nHint: This is not supported here; use a different tool or approach.',
      UNKNOWN:
        'Error: UNKNOWN: something happened\nHint: An unexpected error occurred; retry once, and if it happens ' +
        'again, use another approach.',
    });
  });

  it('has exactly nine codes, each with a hint', () => {
    expect(TOOL_ERROR_CODES).toHaveLength(9);
    for (const code of TOOL_ERROR_CODES) expect(ERROR_HINTS[code].length).toBeGreaterThan(10);
  });

  it('lets a failure carry its own hint and structured data', () => {
    const f = failure('NOT_FOUND', 'no such package', { hint: 'Call app_list first.', data: { package: 'x' } });
    expect(renderResult(f)).toBe('Error: NOT_FOUND: no such package\nHint: Call app_list first.');
    expect(f.error.data).toEqual({ package: 'x' });
  });

  it('renders success as its text, structured JSON or image placeholder', () => {
    expect(renderResult(success('hello'))).toBe('hello');
    expect(renderResult(jsonSuccess({ a: 1 }))).toBe('{\n  "a": 1\n}');
    expect(renderResult({ ok: true, content: [], structured: { n: 2 } })).toBe('{"n":2}');
    const img = imageSuccess(Buffer.from([1, 2, 3]), 'image/png', 'screen');
    expect(img.content[1]).toEqual({ type: 'image', data: 'AQID', mimeType: 'image/png' });
    expect(renderResult(img)).toBe('screen\n[image image/png]');
  });
});

describe('normalizing what a tool returned', () => {
  it('turns garbage into EXECUTION_FAILED naming the tool', () => {
    for (const garbage of [
      undefined,
      null,
      42,
      [],
      {},
      { ok: true },
      { ok: true, content: [{ type: 'video' }] },
      { ok: false, error: { code: 'NOPE', message: 'x', hint: 'y' } },
    ]) {
      const r = normalizeResult(garbage, 'bad_tool');
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('EXECUTION_FAILED');
        expect(r.error.message).toContain("'bad_tool'");
      }
    }
  });

  it('treats a v1 "Error:" string as a failure and other strings as text', () => {
    const r = normalizeResult('Error: file missing', 't');
    expect(r.ok === false && r.error.message).toBe('file missing');
    expect(normalizeResult('all good', 't')).toEqual(success('all good'));
  });

  it('keeps well-formed results as they are', () => {
    const ok = success('x', { y: 1 });
    expect(normalizeResult(ok, 't')).toBe(ok);
    const bad = failure('TIMEOUT', 'slow');
    expect(normalizeResult(bad, 't')).toBe(bad);
  });

  it('recognises a ToolCallError by brand, not by class identity', () => {
    const e = new ToolCallError('NOT_FOUND', 'missing', { hint: 'look again' });
    expect(isToolCallError(e)).toBe(true);
    expect(isToolCallError(Object.assign(new Error('x'), { name: 'ToolCallError', toolErrorCode: 'UNKNOWN' }))).toBe(
      true,
    );
    expect(isToolCallError(new Error('plain'))).toBe(false);
    expect(e.toResult()).toEqual(failure('NOT_FOUND', 'missing', { hint: 'look again' }));
  });
});
