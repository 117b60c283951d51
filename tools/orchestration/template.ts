/**
 * Step templates shared by tool_batch_run and shortcuts (docs/architecture.md#batches,
 * docs/architecture.md#shortcuts). Placeholders live in argument values: `{n}` is the result of
 * step n (0-based), `{name}` a shortcut parameter.
 *
 * Substitution works on the argument value tree, never on JSON text, so the rendered arguments
 * are always valid JSON: a string parameter spliced into a string becomes part of that string
 * (JSON-escaped when serialised), and a value that is exactly `{param}` or `{n}` is replaced by
 * the typed value itself (numbers and booleans bare). Params and step results are substituted in
 * one pass, so text coming from a parameter or a result is never scanned for placeholders again.
 */
import { type ToolResult, renderResult } from '../core/result';

/** Head of a referenced result that is kept; the rest is cut so one huge result cannot blow up the next call. */
export const REFERENCE_LIMIT_BYTES = 4096;

const TOKEN = /\{(\d+|[A-Za-z_][A-Za-z0-9_]*)\}/g;
const WHOLE = /^\{(\d+|[A-Za-z_][A-Za-z0-9_]*)\}$/;

export type ParamValue = string | number | boolean;

export interface Placeholder {
  /** Where it sits, e.g. `steps[2].args.text`. */
  path: string;
  kind: 'step' | 'param';
  /** Step index for `{n}`, parameter name for `{name}`. */
  ref: number | string;
  /** The whole value is the placeholder (typed substitution) rather than part of a string. */
  whole: boolean;
}

export function findPlaceholders(value: unknown, path: string): Placeholder[] {
  if (typeof value === 'string') {
    const whole = WHOLE.test(value);
    return [...value.matchAll(TOKEN)].map((m) => {
      const token = m[1] ?? '';
      const isStep = /^\d+$/.test(token);
      return { path, kind: isStep ? 'step' : 'param', ref: isStep ? Number(token) : token, whole };
    });
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => findPlaceholders(v, `${path}[${i}]`));
  if (isPlainObject(value)) return Object.entries(value).flatMap(([k, v]) => findPlaceholders(v, `${path}.${k}`));
  return [];
}

export interface TemplateScope {
  /** Results of the steps that ran so far, by index. */
  results: readonly ToolResult[];
  /**
   * Declared shortcut parameters (undefined value: optional and not given). In a plain batch
   * there are none, and `{name}` stays literal text.
   */
  params?: ReadonlyMap<string, ParamValue | undefined>;
}

const OMIT = Symbol('omit');

/** Renders a step's argument template against the earlier results and the parameters. */
export function renderTemplate(template: unknown, scope: TemplateScope): unknown {
  const rendered = render(template, scope);
  return rendered === OMIT ? undefined : rendered;
}

function render(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') return renderString(value, scope);
  if (Array.isArray(value)) return value.map((v) => render(v, scope)).filter((v) => v !== OMIT);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = render(v, scope);
      if (r !== OMIT) out[k] = r;
    }
    return out;
  }
  return value;
}

function renderString(text: string, scope: TemplateScope): unknown {
  const whole = WHOLE.exec(text);
  if (whole) {
    const token = whole[1] ?? '';
    if (/^\d+$/.test(token)) {
      const result = scope.results[Number(token)];
      return result ? referenceValue(result) : text;
    }
    if (scope.params?.has(token)) {
      const param = scope.params.get(token);
      // An optional parameter that was not given drops the field, so the step's own default applies.
      return param === undefined ? OMIT : param;
    }
    return text;
  }
  return text.replace(TOKEN, (match, token: string) => {
    if (/^\d+$/.test(token)) {
      const result = scope.results[Number(token)];
      return result ? referenceText(result) : match;
    }
    if (scope.params?.has(token)) return String(scope.params.get(token) ?? '');
    return match;
  });
}

/** The text a reference to a result interpolates: the rendered result, head-truncated. */
export function referenceText(result: ToolResult): string {
  return truncateHead(renderResult(result));
}

/**
 * The value a whole-value reference becomes: the structured result, or the parsed JSON when the
 * text is a JSON object or array, else the text. Bare scalars in text stay text, since reading
 * "1.10" as the number 1.1 would corrupt versions and ids. A value whose JSON exceeds the limit
 * becomes its truncated text, because a cut JSON value no longer parses.
 */
export function referenceValue(result: ToolResult): unknown {
  const text = renderResult(result);
  let value: unknown = text;
  if (result.ok && result.structured !== undefined) value = result.structured;
  else if (/^\s*[[{]/.test(text)) {
    try {
      value = JSON.parse(text);
    } catch {
      value = text;
    }
  }
  if (typeof value === 'string') return truncateHead(value);
  const json = JSON.stringify(value) ?? '';
  return Buffer.byteLength(json) > REFERENCE_LIMIT_BYTES ? truncateHead(json) : value;
}

/** Keeps the first `limit` UTF-8 bytes (never splitting a character) and marks the cut. */
export function truncateHead(text: string, limit = REFERENCE_LIMIT_BYTES): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return text;
  let end = limit;
  // Back off continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return `${bytes.subarray(0, end).toString('utf8')}…[truncated: kept the first ${end} of ${bytes.length} bytes]`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
