/**
 * The seven operations of json_transform (docs/architecture.md#tool-families, "jq-style pipeline"),
 * applied in order, each to the output of the one before:
 *   get      value at a field path                 (jq `.a.b[0]`)
 *   where    keep array items whose field matches  (jq `map(select(...))`)
 *   map      each item → a field, or an object of some fields (jq `map(.a)`, `map({a, b})`)
 *   sort_by  order items by a field                (jq `sort_by(.a)`, stable)
 *   group_by items grouped by a field's value      → [{ key, count, items }]
 *   unique   drop items whose field (or whole value) was seen before (keeps the first)
 *   limit    a slice: `count` items after `offset`
 * A step that cannot apply throws a TransformError naming the step, its op and what it got.
 */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { JSON_VALUE } from '../core/fields';
import { FieldPathError, type PathSegment, parseFieldPath, valueAt } from './field-path';

// One flat object for every operation, so a model reads each field once; which fields an operation
// needs is checked below and said in the tool's description.
const path = z.string().max(500);
const OPS = ['get', 'where', 'map', 'sort_by', 'group_by', 'unique', 'limit'] as const;
const NEEDS: Record<(typeof OPS)[number], ReadonlyArray<'path' | 'cmp' | 'count'>> = {
  get: ['path'],
  where: ['path', 'cmp'],
  map: [],
  sort_by: ['path'],
  group_by: ['path'],
  unique: [],
  limit: ['count'],
};

const flatStep = z
  .object({
    op: z.enum(OPS),
    path: path.optional(),
    cmp: z.enum(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'contains', 'in', 'exists']).optional(),
    value: JSON_VALUE.optional(),
    fields: z.array(z.string().max(500)).min(1).max(100).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    count: z.number().int().min(0).optional(),
    offset: z.number().int().min(0).optional(),
  })
  .superRefine((step, ctx) => {
    for (const field of NEEDS[step.op])
      if (step[field] === undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: `${step.op} needs ${field}` });
  });

type Step =
  | { op: 'get'; path: string }
  | { op: 'where'; path: string; cmp: Cmp; value?: unknown }
  | { op: 'map'; path?: string; fields?: string[] }
  | { op: 'sort_by'; path: string; order: 'asc' | 'desc' }
  | { op: 'group_by'; path: string }
  | { op: 'unique'; path?: string }
  | { op: 'limit'; count: number; offset: number };
type Cmp = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains' | 'in' | 'exists';

/** A checked step, typed by its operation (the checks above guarantee the fields it needs). */
export const transformStepSchema = flatStep.transform(
  (step) => ({ ...step, order: step.order ?? 'asc', offset: step.offset ?? 0 }) as Step,
);

export type TransformStep = Step;

export class TransformError extends Error {
  constructor(
    readonly step: number,
    readonly op: string,
    message: string,
  ) {
    super(`pipeline[${step}] (${op}): ${message}`);
    this.name = 'TransformError';
  }
}

export function applyTransform(data: unknown, steps: readonly TransformStep[]): unknown {
  let value = data;
  for (const [index, step] of steps.entries()) {
    try {
      value = applyStep(value, step);
    } catch (e) {
      if (e instanceof StepFailure || e instanceof FieldPathError) throw new TransformError(index, step.op, e.message);
      throw e;
    }
  }
  return value;
}

class StepFailure extends Error {}

function applyStep(value: unknown, step: TransformStep): unknown {
  switch (step.op) {
    case 'get': {
      const found = valueAt(value, parseFieldPath(step.path));
      if (found === undefined) throw new StepFailure(`no value at '${step.path}'${keysHint(value)}`);
      return found;
    }
    case 'where': {
      const at = parseFieldPath(step.path);
      if (step.cmp === 'in' && !Array.isArray(step.value)) throw new StepFailure('cmp "in" needs value to be an array');
      return items(value).filter((item) => matches(valueAt(item, at), step.cmp, step.value));
    }
    case 'map': {
      if ((step.path === undefined) === (step.fields === undefined))
        throw new StepFailure('give exactly one of path or fields');
      if (step.path !== undefined) {
        const at = parseFieldPath(step.path);
        return items(value).map((item) => valueAt(item, at) ?? null);
      }
      const fields = (step.fields ?? []).map((f) => [f, parseFieldPath(f)] as const);
      return items(value).map((item) => {
        const out: Record<string, unknown> = {};
        for (const [name, at] of fields) {
          const v = valueAt(item, at);
          if (v !== undefined) out[name] = v;
        }
        return out;
      });
    }
    case 'sort_by': {
      const at = parseFieldPath(step.path);
      const sign = step.order === 'desc' ? -1 : 1;
      const keyed = items(value).map((item, i) => ({ item, i, key: valueAt(item, at) }));
      keyed.sort((x, y) => compareKeys(x.key, y.key, sign) || x.i - y.i);
      return keyed.map((k) => k.item);
    }
    case 'group_by': {
      const at = parseFieldPath(step.path);
      const groups = new Map<string, { key: unknown; count: number; items: unknown[] }>();
      for (const item of items(value)) {
        const key = valueAt(item, at) ?? null;
        const id = canonical(key);
        const group = groups.get(id) ?? { key, count: 0, items: [] };
        group.count++;
        group.items.push(item);
        groups.set(id, group);
      }
      return [...groups.values()];
    }
    case 'unique': {
      const at: PathSegment[] = step.path === undefined ? [] : parseFieldPath(step.path);
      const seen = new Set<string>();
      return items(value).filter((item) => {
        const id = canonical(valueAt(item, at) ?? null);
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      });
    }
    case 'limit':
      return items(value).slice(step.offset, step.offset + step.count);
  }
}

function items(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  throw new StepFailure(`expected an array, got ${kind(value)}${keysHint(value)}; use get to reach the array first`);
}

function matches(actual: unknown, cmp: Extract<TransformStep, { op: 'where' }>['cmp'], expected: unknown): boolean {
  switch (cmp) {
    case 'exists':
      return actual !== undefined;
    case 'eq':
      return isDeepStrictEqual(actual, expected);
    case 'ne':
      return !isDeepStrictEqual(actual, expected);
    case 'in':
      return Array.isArray(expected) && expected.some((e) => isDeepStrictEqual(actual, e));
    case 'contains':
      if (typeof actual === 'string' && typeof expected === 'string') return actual.includes(expected);
      return Array.isArray(actual) && actual.some((e) => isDeepStrictEqual(e, expected));
    default: {
      // Ordering only between two numbers or two strings; anything else does not match (like SQL NULL).
      const comparable =
        (typeof actual === 'number' && typeof expected === 'number') ||
        (typeof actual === 'string' && typeof expected === 'string');
      if (!comparable) return false;
      const a = actual as number | string;
      const e = expected as number | string;
      return cmp === 'gt' ? a > e : cmp === 'gte' ? a >= e : cmp === 'lt' ? a < e : a <= e;
    }
  }
}

/** Numbers, then strings, then booleans, then the rest; missing values always last. */
function compareKeys(a: unknown, b: unknown, sign: number): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra === 9 || rb === 9) return ra - rb;
  if (ra !== rb) return sign * (ra - rb);
  if (typeof a === 'number' || typeof a === 'string' || typeof a === 'boolean') {
    const bb = b as typeof a;
    return a < bb ? -sign : a > bb ? sign : 0;
  }
  return 0;
}

function rank(v: unknown): number {
  if (v === undefined || v === null) return 9;
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  return 3;
}

/** JSON with sorted keys, so {a,b} and {b,a} are the same group or duplicate. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function keysHint(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return '';
  const keys = Object.keys(value);
  return keys.length > 0
    ? ` (its keys: ${keys.slice(0, 20).join(', ')}${keys.length > 20 ? ', …' : ''})`
    : ' (an empty object)';
}
