/**
 * errorSlug: a short stable name for an error, for traces, histograms and breaker timelines
 * (`timeout`, `circuit-open`, `rate-limited`, `enoent-no-such-file`). It must never carry
 * argument text, so for execution failures only the first plain words of the cleaned message are
 * used (cleanErrorText), quoted text is cut off, any word that also occurs in the arguments is
 * dropped, and a slug that still spells out a run of an argument (`abc-defgh` for "abc defgh") is
 * replaced by the code's.
 */
import type { ToolError, ToolErrorCode } from '../result';
import { type ArgumentText, argumentTexts, isUnchecked } from './argument-text';
import { cleanWith, repeatsArgumentText } from './error-text';

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

/**
 * The slug of an error. `texts` are the call's argument texts when the caller has them already
 * (argumentTexts(args, fields)); otherwise they are collected from `args`.
 */
export function errorSlug(
  error: Pick<ToolError, 'code' | 'message' | 'data'>,
  args?: unknown,
  texts?: readonly ArgumentText[],
): string {
  const needles = texts ?? (args === undefined ? [] : argumentTexts(args));
  const declared = error.data?.slug;
  if (typeof declared === 'string' && declared.length <= MAX_SLUG && SAFE_SLUG.test(declared)) {
    if (!spellsArgument(declared, needles)) return declared;
  }
  if (error.code !== 'EXECUTION_FAILED' && error.code !== 'UNKNOWN') return CODE_SLUGS[error.code];
  const slug = messageSlug(error.message, args, needles);
  return slug && !spellsArgument(slug, needles) ? slug : CODE_SLUGS[error.code];
}

/** Whether a slug repeats a run of argument text, compared the way slugs are spelled. */
function spellsArgument(slug: string, needles: readonly ArgumentText[]): boolean {
  if (needles.length === 0) return false;
  if (isUnchecked(needles)) return true;
  const spelled = needles.map((n) => ({ label: n.label, text: n.text.toLowerCase().replace(/[^a-z0-9]+/g, '-') }));
  return repeatsArgumentText(slug, needles) || repeatsArgumentText(slug, spelled);
}

function messageSlug(message: string, args: unknown, needles: readonly ArgumentText[]): string {
  // "Tool 'x' failed: " is the executor's framing, not the error; placeholders name fields, not the error.
  const unframed = message.replace(/^Tool '[^']*'(?: failed:)?\s*/, '');
  let text = cleanWith(unframed, needles).replace(/‹[^›]*›/g, ' ');
  const quote = text.search(/['"`]/);
  if (quote >= 0) text = text.slice(0, quote);
  // Made only when the cleaned text has a word left: the arguments may be megabytes.
  let argText: string | undefined;
  const words: string[] = [];
  for (const match of text.matchAll(/[A-Za-z][A-Za-z0-9]*/g)) {
    const word = match[0].toLowerCase();
    if (word.length > MAX_WORD) continue;
    argText ??= args === undefined ? '' : safeJson(args).toLowerCase();
    if (argText.includes(word)) continue;
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
