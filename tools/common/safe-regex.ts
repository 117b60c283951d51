/**
 * Regular expressions from a model: compiled with size and flag checks on the main thread, and
 * matched or replaced inside a CPU worker (structured/regex-work.ts), whose bound stops a pattern
 * such as `(a+)+$` on 'aaaa…!' that would otherwise backtrack for longer than the universe exists.
 * search_files still matches on the main thread under `runBounded` and reports `regexTimeout`.
 */
import { ToolCallError } from '../core/result';

export const MAX_PATTERN_LENGTH = 2000;
export const MAX_REGEX_INPUT_CHARS = 1_000_000;
export const MAX_REPLACE_OUTPUT_CHARS = 4_000_000;
const ALLOWED_FLAGS = /^[dgimsuvy]*$/;

export interface RegexMatch {
  match: string;
  index: number;
  /** Numbered capture groups, 1-based in the pattern, 0-based here; undefined when a group did not take part. */
  groups: Array<string | undefined>;
  named: Record<string, string | undefined> | undefined;
}

function invalid(message: string, hint: string, data: Record<string, unknown> = {}): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', message, { hint, data });
}

/** Compiles a model-supplied pattern; a syntax error or a bad flag is INVALID_ARGUMENT naming the field. */
export function compileRegex(pattern: string, flags = '', field = 'pattern'): RegExp {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw invalid(
      `The ${field} is ${pattern.length} characters; at most ${MAX_PATTERN_LENGTH} are accepted.`,
      'Use a shorter pattern.',
      { fields: [field] },
    );
  }
  if (!ALLOWED_FLAGS.test(flags) || new Set(flags).size !== flags.length) {
    throw invalid(
      `Invalid regex flags "${flags}".`,
      'Use a combination of d, g, i, m, s, u, v, y, each at most once.',
      { fields: ['flags'] },
    );
  }
  try {
    return new RegExp(pattern, flags);
  } catch (e) {
    throw invalid(
      `Invalid regular expression in "${field}": ${(e as Error).message}.`,
      'Fix the pattern syntax (JavaScript RegExp dialect) and retry.',
      { fields: [field] },
    );
  }
}

export function checkRegexInput(text: string, field = 'text'): void {
  if (text.length > MAX_REGEX_INPUT_CHARS) {
    throw invalid(
      `The ${field} has ${text.length} characters; at most ${MAX_REGEX_INPUT_CHARS} are searched.`,
      'Split the input and call the tool on smaller parts.',
      { fields: [field] },
    );
  }
}

/** What to do about a pattern that backtracks catastrophically. */
export const REGEX_REWRITE_HINT =
  'Rewrite the pattern without nested or overlapping quantifiers (e.g. "(a+)+", "(a|a)*", "(.*)*"); anchor it and ' +
  'make repeated parts mutually exclusive, then retry.';

export function regexTimeout(timeoutMs: number, field = 'pattern'): ToolCallError {
  return invalid(
    `The regular expression did not finish within ${timeoutMs} ms on this input (catastrophic backtracking).`,
    REGEX_REWRITE_HINT,
    { fields: [field], reason: 'regex-timeout', timeoutMs },
  );
}

function withGlobal(re: RegExp): RegExp {
  return re.global ? re : new RegExp(re.source, `${re.flags}g`);
}

/** Up to `max` matches of `re` in `text`, and whether more were left. Unbounded: run it in a worker. */
export function findMatches(re: RegExp, text: string, max: number): { matches: RegexMatch[]; truncated: boolean } {
  const matches: RegexMatch[] = [];
  for (const m of text.matchAll(withGlobal(re))) {
    if (matches.length >= max) return { matches, truncated: true };
    matches.push({
      match: m[0],
      index: m.index ?? 0,
      groups: m.slice(1),
      named: m.groups ? { ...m.groups } : undefined,
    });
  }
  return { matches, truncated: false };
}

/** Whether `re` matches anywhere in `text`. Unbounded: run it in a worker. */
export function testMatch(re: RegExp, text: string): boolean {
  const plain = re.global || re.sticky ? new RegExp(re.source, re.flags.replace(/[gy]/g, '')) : re;
  return plain.test(text);
}

/**
 * Replaces matches of `re`. The `$1 $<name> $& $\` $' $$` substitutions are expanded here rather
 * than by String.prototype.replace so the output size can be counted as it grows: "$`" on a long
 * input is quadratic and would exhaust memory before the native call returned. Unbounded in
 * time: run it in a worker.
 */
export function replaceMatches(
  re: RegExp,
  text: string,
  replacement: string,
  opts: { all: boolean; maxOutput?: number },
): { output: string; replacements: number } {
  const target = opts.all ? withGlobal(re) : new RegExp(re.source, re.flags.replace('g', ''));
  const maxOutput = opts.maxOutput ?? MAX_REPLACE_OUTPUT_CHARS;
  let replacements = 0;
  let grown = 0;
  const output = text.replace(target, (...args: unknown[]) => {
    const hasNamed = typeof args[args.length - 1] === 'object' && args[args.length - 1] !== null;
    const named = hasNamed ? (args[args.length - 1] as Record<string, string | undefined>) : undefined;
    const tail = hasNamed ? 3 : 2;
    const match = args[0] as string;
    const position = args[args.length - tail] as number;
    const captures = args.slice(1, args.length - tail) as Array<string | undefined>;
    const piece = expandReplacement(replacement, { match, position, captures, named, subject: text }, maxOutput);
    replacements += 1;
    grown += piece.length - match.length;
    if (text.length + grown > maxOutput) {
      throw invalid(
        `The replaced text would exceed ${maxOutput} characters.`,
        'Replace fewer matches or use a shorter replacement.',
        { fields: ['replacement'] },
      );
    }
    return piece;
  });
  return { output, replacements };
}

interface MatchInfo {
  match: string;
  position: number;
  captures: Array<string | undefined>;
  named: Record<string, string | undefined> | undefined;
  subject: string;
}

/** ECMAScript GetSubstitution, with a length bound. */
export function expandReplacement(template: string, m: MatchInfo, maxLength: number): string {
  let out = '';
  const n = m.captures.length;
  for (let i = 0; i < template.length; i++) {
    if (out.length > maxLength) break;
    const c = template[i];
    const next = template[i + 1];
    if (c !== '$' || next === undefined) {
      out += c;
      continue;
    }
    if (next === '$') {
      out += '$';
      i += 1;
    } else if (next === '&') {
      out += m.match;
      i += 1;
    } else if (next === '`') {
      out += m.subject.slice(0, m.position);
      i += 1;
    } else if (next === "'") {
      out += m.subject.slice(m.position + m.match.length);
      i += 1;
    } else if (next >= '0' && next <= '9') {
      const two = template.slice(i + 1, i + 3);
      const twoIndex = /^\d\d$/.test(two) ? Number(two) : 0;
      const oneIndex = Number(next);
      if (twoIndex >= 1 && twoIndex <= n) {
        out += m.captures[twoIndex - 1] ?? '';
        i += 2;
      } else if (oneIndex >= 1 && oneIndex <= n) {
        out += m.captures[oneIndex - 1] ?? '';
        i += 1;
      } else {
        out += '$';
      }
    } else if (next === '<' && m.named) {
      const close = template.indexOf('>', i + 2);
      if (close < 0) {
        out += '$';
      } else {
        out += m.named[template.slice(i + 2, close)] ?? '';
        i = close;
      }
    } else {
      out += '$';
    }
  }
  return out;
}
