/**
 * Step templates shared by tool_batch_run and shortcuts (docs/architecture.md#batches,
 * docs/architecture.md#shortcuts). Placeholders live in argument values: `{n}` is the result of
 * step n (0-based), `{n.path}` one field of it (`{0.data.items[2].id}`, `{1[0]}`, `{0["a b"]}`,
 * the field paths of field-path.ts), `{name}` a shortcut parameter.
 *
 * Substitution works on the argument value tree, never on JSON text, so the rendered arguments
 * are always valid JSON: a string parameter spliced into a string becomes part of that string
 * (JSON-escaped when serialised), and a value that is exactly `{param}` or `{n}` is replaced by
 * the typed value itself (numbers and booleans bare). Params and step results are substituted in
 * one pass, so text coming from a parameter or a result is never scanned for placeholders again.
 */
import { type ToolResult, renderResult } from '../core/result';
import { FieldPathError, type PathSegment, parseFieldPath } from './field-path';

/** Head of a referenced result that is kept; the rest is cut so one huge result cannot blow up the next call. */
export const REFERENCE_LIMIT_BYTES = 4096;

/** `{n}` or `{n.path}`: group 1 the step, group 2 its field path; `{name}`: group 3. */
const STEP_REF = String.raw`(\d+)((?:\.[A-Za-z0-9_$-]+|\[(?:\d+|"(?:[^"\\]|\\.)*")\])*)`;
const PARAM_REF = String.raw`([A-Za-z_][A-Za-z0-9_]*)`;
const TOKEN = new RegExp(String.raw`\{(?:${STEP_REF}|${PARAM_REF})\}`, 'g');
const WHOLE = new RegExp(String.raw`^\{(?:${STEP_REF}|${PARAM_REF})\}$`);

/** A reference that cannot be filled in: a field the earlier result does not have, or a path that does not parse. */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly placeholder: string,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

export type ParamValue = string | number | boolean;

export interface Placeholder {
  /** Where it sits, e.g. `steps[2].args.text`. */
  path: string;
  kind: 'step' | 'param';
  /** Step index for `{n}`, parameter name for `{name}`. */
  ref: number | string;
  /** The field path of `{n.path}` as written (`.data.items[2].id`); absent for the whole result. */
  field?: string;
  /** The placeholder as written, e.g. `{0.data.id}`. */
  text: string;
  /** The whole value is the placeholder (typed substitution) rather than part of a string. */
  whole: boolean;
}

/** What looks like `{n.path}` but may be malformed (`{0.data[x]}`): found so it is refused, not left as text. */
const LOOSE_STEP_REF = /\{(\d+)([.[][^{}]*)\}/g;

export function findPlaceholders(value: unknown, path: string): Placeholder[] {
  if (typeof value === 'string') {
    const whole = WHOLE.test(value);
    const found = [...value.matchAll(TOKEN)].map((m): Placeholder & { at: number } => {
      const at = m.index ?? 0;
      if (m[1] !== undefined)
        return { path, kind: 'step', ref: Number(m[1]), ...(m[2] ? { field: m[2] } : {}), whole, text: m[0], at };
      return { path, kind: 'param', ref: m[3] ?? '', whole, text: m[0], at };
    });
    const starts = new Set(found.map((p) => p.at));
    for (const m of value.matchAll(LOOSE_STEP_REF)) {
      const at = m.index ?? 0;
      if (!starts.has(at))
        found.push({ path, kind: 'step', ref: Number(m[1]), field: m[2] ?? '', whole: false, text: m[0], at });
    }
    return found.sort((x, y) => x.at - y.at).map(({ at: _at, ...p }) => p);
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

/** Renders a step's argument template against the earlier results and the parameters; throws TemplateError. */
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
    if (whole[1] !== undefined) {
      const result = scope.results[Number(whole[1])];
      if (!result) return text;
      return whole[2] ? bounded(pick(result, Number(whole[1]), whole[2], text)) : referenceValue(result);
    }
    const name = whole[3] ?? '';
    if (scope.params?.has(name)) {
      const param = scope.params.get(name);
      // An optional parameter that was not given drops the field, so the step's own default applies.
      return param === undefined ? OMIT : param;
    }
    return text;
  }
  return text.replace(TOKEN, (match, step: string | undefined, field: string | undefined, name: string | undefined) => {
    if (step !== undefined) {
      const result = scope.results[Number(step)];
      if (!result) return match;
      return field ? truncateHead(asText(pick(result, Number(step), field, match))) : referenceText(result);
    }
    if (name !== undefined && scope.params?.has(name)) return String(scope.params.get(name) ?? '');
    return match;
  });
}

/** The path of `{n.path}`, parsed; a TemplateError naming the placeholder when it does not parse. */
export function referencePath(field: string, placeholder: string): PathSegment[] {
  try {
    return parseFieldPath(field);
  } catch (e) {
    const why = e instanceof FieldPathError ? e.message : String(e);
    throw new TemplateError(`${placeholder}: ${why}`, placeholder);
  }
}

/** The field a reference picks from a step's whole result (before any cut). */
function pick(result: ToolResult, step: number, field: string, placeholder: string): unknown {
  let current: unknown = resultValue(result);
  let walked = '';
  for (const segment of referencePath(field, placeholder)) {
    const next = childOf(current, segment);
    const here = walked + segmentText(segment);
    if (next === undefined)
      throw new TemplateError(
        `${placeholder}: the result of step ${step} has ` +
          `no ${plainPath(here)}; ${describeValue(current, walked ? plainPath(walked) : 'the result')}`,
        placeholder,
      );
    current = next;
    walked = here;
  }
  return current;
}

function segmentText(segment: PathSegment): string {
  if (typeof segment === 'number') return `[${segment}]`;
  return /^[A-Za-z0-9_$-]+$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
}

function plainPath(path: string): string {
  return path.replace(/^\./, '');
}

function childOf(value: unknown, segment: PathSegment): unknown {
  if (typeof segment === 'number') return Array.isArray(value) ? value[segment] : undefined;
  if (!isPlainObject(value) || !Object.hasOwn(value, segment)) return undefined;
  return value[segment];
}

/** What a value offers a path, so the model can fix its reference. */
function describeValue(value: unknown, what: string): string {
  if (Array.isArray(value))
    return value.length
      ? `${what} is a list of ${value.length} item${value.length === 1 ? '' : 's'} (indexes 0 to ${value.length - 1})`
      : `${what} is an empty list`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    const shown = keys.slice(0, 12).join(', ');
    return keys.length
      ? `${what} has the fields ${shown}${keys.length > 12 ? ', …' : ''}`
      : `${what} is an empty object`;
  }
  return `${what} is ${value === null ? 'null' : `a ${typeof value}`}, which has no fields`;
}

/** A picked value inside a text: strings as they are, anything else as compact JSON. */
function asText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
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
  return bounded(resultValue(result));
}

/** A result as a value, whole: the structured result, or the parsed JSON of its text, or the text. */
export function resultValue(result: ToolResult): unknown {
  const text = renderResult(result);
  if (result.ok && result.structured !== undefined) return result.structured;
  if (/^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** A value kept whole when its JSON is within the limit, else its cut text. */
function bounded(value: unknown): unknown {
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
