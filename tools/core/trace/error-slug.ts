/**
 * errorSlug: a short stable name for an error, for traces, histograms and breaker timelines
 * (`timeout`, `circuit-open`, `rate-limited`, `enoent-no-such-file`). It must never carry
 * argument text, so for execution failures only the first plain words of the message are used,
 * quoted text is cut off, and any word that also occurs in the arguments is dropped.
 */
import type { ToolError, ToolErrorCode } from '../result';

const CODE_SLUGS: Readonly<Record<ToolErrorCode, string>> = {
  INVALID_ARGUMENT: 'invalid-argument',
  PERMISSION_DENIED: 'permission-denied',
  NOT_FOUND: 'not-found',
  TIMEOUT: 'timeout',
  RATE_LIMITED: 'rate-limited',
  CIRCUIT_OPEN: 'circuit-open',
  EXECUTION_FAILED: 'execution-failed',
  UNSUPPORTED: 'unsupported',
  UNKNOWN: 'unknown',
};

/** A slug a stage or a tool may set in `error.data.slug` (e.g. `device-offline`). */
const SAFE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_SLUG = 48;
const MAX_WORDS = 4;
const MAX_WORD = 20;

export function codeSlug(code: ToolErrorCode): string {
  return CODE_SLUGS[code];
}

/** Lower-case words joined by dashes, at most MAX_SLUG long; '' when nothing is left. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
}

export function errorSlug(error: Pick<ToolError, 'code' | 'message' | 'data'>, args?: unknown): string {
  const declared = error.data?.slug;
  if (typeof declared === 'string' && declared.length <= MAX_SLUG && SAFE_SLUG.test(declared)) return declared;
  if (error.code !== 'EXECUTION_FAILED' && error.code !== 'UNKNOWN') return CODE_SLUGS[error.code];
  return messageSlug(error.message, args) || CODE_SLUGS[error.code];
}

function messageSlug(message: string, args: unknown): string {
  // "Tool 'x' failed: " is the executor's framing, not the error.
  let text = message.replace(/^Tool '[^']*'(?: failed:)?\s*/, '');
  const quote = text.search(/['"`]/);
  if (quote >= 0) text = text.slice(0, quote);
  const argText = args === undefined ? '' : safeJson(args).toLowerCase();
  const words: string[] = [];
  for (const match of text.matchAll(/[A-Za-z][A-Za-z0-9]*/g)) {
    const word = match[0].toLowerCase();
    if (word.length > MAX_WORD || argText?.includes(word)) continue;
    words.push(word);
    if (words.length === MAX_WORDS) break;
  }
  return words.join('-');
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
