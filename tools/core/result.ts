/**
 * ToolResult (docs/architecture.md#results-and-error-codes): a success with content, or a
 * structured error with one of nine codes.
 * `renderResult()` gives the `Error: …` string form that string-based agents already parse; every
 * code carries a fix hint a model can act on. Across process boundaries only plain objects travel.
 */

import { TOOL_ERROR_CODES, type ToolErrorCode } from '../../shared/error-codes';

export { TOOL_ERROR_CODES, type ToolErrorCode };

/** What the model should do about each kind of failure. These words reach the model verbatim. */
export const ERROR_HINTS: Readonly<Record<ToolErrorCode, string>> = {
  INVALID_ARGUMENT: 'Fix the arguments and retry.',
  PERMISSION_DENIED: 'Do not retry this call; change your approach.',
  NOT_FOUND: 'Check the name or reference; look up what exists, then retry with one of those.',
  TIMEOUT: 'The tool did not finish in time; retry once with a smaller request, or check that the target responds.',
  RATE_LIMITED: 'Too many calls to this tool; wait until a token is back before calling it again.',
  CIRCUIT_OPEN: 'This tool has been failing; do not retry it now. Use another approach or wait for the probe.',
  EXECUTION_FAILED:
    'The tool failed while running; read the message, adjust, and retry only if the cause was transient.',
  UNSUPPORTED: 'This is not supported here; use a different tool or approach.',
  UNKNOWN: 'An unexpected error occurred; retry once, and if it happens again, use another approach.',
};

export type ToolContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

export interface ToolError {
  code: ToolErrorCode;
  message: string;
  hint: string;
  /** Machine-readable details (e.g. field path, retry-after, suggestions). Plain JSON only. */
  data?: Record<string, unknown>;
}

export type ToolResult = { ok: true; content: ToolContent[]; structured?: unknown } | { ok: false; error: ToolError };

export type ToolFailure = Extract<ToolResult, { ok: false }>;
export type ToolSuccess = Extract<ToolResult, { ok: true }>;

export function success(content: string | ToolContent[], structured?: unknown): ToolSuccess {
  const parts = typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content;
  return structured === undefined ? { ok: true, content: parts } : { ok: true, content: parts, structured };
}

/** A success whose payload is JSON: the text is the JSON, the structured part the value. */
export function jsonSuccess(value: unknown): ToolSuccess {
  return { ok: true, content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structured: value };
}

export function imageSuccess(data: Buffer | string, mimeType: string, caption?: string): ToolSuccess {
  const content: ToolContent[] = [
    { type: 'image', data: typeof data === 'string' ? data : data.toString('base64'), mimeType },
  ];
  if (caption) content.unshift({ type: 'text', text: caption });
  return { ok: true, content };
}

export function failure(
  code: ToolErrorCode,
  message: string,
  opts: { hint?: string; data?: Record<string, unknown> } = {},
): ToolFailure {
  const error: ToolError = { code, message, hint: opts.hint ?? ERROR_HINTS[code] };
  if (opts.data) error.data = opts.data;
  return { ok: false, error };
}

/** The string form: text content joined, or `Error: CODE: message\nHint: …` for a failure. */
export function renderResult(result: ToolResult): string {
  if (!result.ok) return `Error: ${result.error.code}: ${result.error.message}\nHint: ${result.error.hint}`;
  const texts = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [`[image ${c.mimeType}]`]));
  if (texts.length > 0) return texts.join('\n');
  return result.structured === undefined ? '' : JSON.stringify(result.structured);
}

/** A thrown error that a tool uses to end with a specific code; the executor turns it into a result. */
export class ToolCallError extends Error {
  readonly toolErrorCode: ToolErrorCode;
  readonly hint: string | undefined;
  readonly data: Record<string, unknown> | undefined;
  constructor(code: ToolErrorCode, message: string, opts: { hint?: string; data?: Record<string, unknown> } = {}) {
    super(message);
    this.name = 'ToolCallError';
    this.toolErrorCode = code;
    this.hint = opts.hint;
    this.data = opts.data;
  }
  toResult(): ToolFailure {
    return failure(this.toolErrorCode, this.message, {
      ...(this.hint ? { hint: this.hint } : {}),
      ...(this.data ? { data: this.data } : {}),
    });
  }
}

/** Brand check instead of instanceof, so errors from another copy of this module are still recognised. */
export function isToolCallError(e: unknown): e is ToolCallError {
  return (
    typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'ToolCallError' && 'toolErrorCode' in e
  );
}

const CODES = new Set<string>(TOOL_ERROR_CODES);

/**
 * Accepts whatever a tool returned and makes it a well-formed ToolResult. A string is text
 * content (a string starting with `Error:` is an EXECUTION_FAILED, as v1 tools signalled it);
 * anything that is not a result shape is garbage and becomes EXECUTION_FAILED.
 */
export function normalizeResult(value: unknown, toolId: string): ToolResult {
  if (typeof value === 'string') {
    if (value.startsWith('Error:'))
      return failure('EXECUTION_FAILED', value.slice(6).trim() || 'the tool reported an error');
    return success(value);
  }
  if (typeof value === 'object' && value !== null && 'ok' in value) {
    const v = value as { ok: unknown; content?: unknown; error?: unknown; structured?: unknown };
    if (v.ok === true && Array.isArray(v.content) && v.content.every(isContent)) return value as ToolSuccess;
    if (v.ok === false && isError(v.error)) return value as ToolFailure;
  }
  return failure('EXECUTION_FAILED', `Tool '${toolId}' returned a malformed result (${describe(value)}).`, {
    hint: 'This is a defect in the tool, not in your arguments; use another approach.',
  });
}

function isContent(c: unknown): c is ToolContent {
  if (typeof c !== 'object' || c === null) return false;
  const x = c as Record<string, unknown>;
  return (
    (x.type === 'text' && typeof x.text === 'string') ||
    (x.type === 'image' && typeof x.data === 'string' && typeof x.mimeType === 'string')
  );
}

function isError(e: unknown): e is ToolError {
  if (typeof e !== 'object' || e === null) return false;
  const x = e as Record<string, unknown>;
  return typeof x.code === 'string' && CODES.has(x.code) && typeof x.message === 'string' && typeof x.hint === 'string';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object without a result shape' : typeof value;
}
