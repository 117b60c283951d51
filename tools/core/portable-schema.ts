/**
 * The JSON Schema Toolgate publishes, made portable and terse (docs/adding-a-tool.md#schemas-and-descriptions):
 * every client and a strict validator (Ajv strict mode) read it the same way, and it carries
 * nothing a model never needs. From any schema, zod's rendering or an imported one:
 *
 * - no `$schema`;
 * - `additionalProperties: false` is left out: fields a tool does not declare are ignored, never
 *   refused, and a client must not be told otherwise;
 * - a `type` array becomes `anyOf`, each branch with the keywords of its type (strict validators
 *   and several clients refuse union types), and `oneOf` becomes `anyOf` (the alternatives
 *   Toolgate declares exclude each other already; some clients accept only `anyOf`);
 * - alternatives that are constants of one type (`anyOf: [{type: number, const: 4}, …]`) become one
 *   `enum` of that type, which says the same;
 * - limits a model never meets are left out: bounds of ±9007199254740991 (zod's safe-integer
 *   range), `minLength: 1` and `minItems: 1` (a text or list that must not be empty) and a `maxLength` of 1000 or
 *   more (no model writes a path, URL or text that long in one field); each check stays, and says
 *   so when it refuses. So are `{}` under `items` or `additionalProperties`,
 *   `propertyNames: {type: "string"}` and a default that is what leaving the field out means
 *   anyway (`false`, `[]`, `{}`, `""`), which say no more than leaving them out.
 */
import type { JsonSchema } from './schema';

/** Keywords whose value is a map from names (of properties, definitions) to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is data, not schema: copied untouched. */
const DATA = new Set(['enum', 'const', 'default', 'examples', 'required']);
const BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);
/** A string this long is one no model writes in a field; the validator still refuses a longer one. */
const UNMET_MAX_LENGTH = 1000;

/** The keywords that belong to one JSON type, moved into its branch when a type array is split. */
const TYPE_KEYWORDS: Record<string, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding', 'contentMediaType'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'],
  object: ['properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames', 'minProperties'],
};

type Node = Record<string, unknown>;

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isEmpty(v: unknown): boolean {
  return isNode(v) && Object.keys(v).length === 0;
}

/** A default that says nothing: an optional flag, list, map or text left out is off, empty or blank. */
function isNothing(v: unknown): boolean {
  return v === false || v === '' || isEmpty(v) || (Array.isArray(v) && v.length === 0);
}

function portableNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portableNode);
  if (!isNode(node)) return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if (key === 'additionalProperties' && (value === false || isEmpty(value))) continue;
    if (key === 'items' && isEmpty(value)) continue;
    if (key === 'propertyNames' && isNode(value) && value.type === 'string' && Object.keys(value).length === 1)
      continue;
    if (BOUNDS.has(key) && typeof value === 'number' && Math.abs(value) >= Number.MAX_SAFE_INTEGER) continue;
    if ((key === 'minLength' || key === 'minItems') && value === 1) continue;
    if (key === 'maxLength' && typeof value === 'number' && value >= UNMET_MAX_LENGTH) continue;
    if (key === 'default' && isNothing(value)) continue;
    if (DATA.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.has(key) && isNode(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, portableNode(sub)]));
    else out[key] = portableNode(value);
  }
  if (Array.isArray(out.oneOf) && out.anyOf === undefined) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  if (Array.isArray(out.anyOf)) collapseConstants(out);
  return Array.isArray(out.type) ? splitTypes(out, out.type as unknown[]) : out;
}

/** `anyOf` of `{type: t, const: v}` branches, all of one type and nothing else, as `{type: t, enum: [v…]}`. */
function collapseConstants(node: Node): void {
  const branches = node.anyOf as unknown[];
  const type = isNode(branches[0]) ? branches[0].type : undefined;
  const constant = (b: unknown): b is Node =>
    isNode(b) && b.type === type && 'const' in b && Object.keys(b).length === 2;
  if (typeof type !== 'string' || branches.length < 2 || !branches.every(constant)) return;
  delete node.anyOf;
  node.type = type;
  node.enum = branches.map((b) => (b as Node).const);
}

/** `{type: [a, b], …}` as `{anyOf: [{type: a, …a's keywords}, {type: b, …}], …the rest}`. */
function splitTypes(node: Node, types: unknown[]): Node {
  const names = types.filter((t): t is string => typeof t === 'string');
  if (names.length === 1) return { ...node, type: names[0] };
  const rest: Node = { ...node };
  delete rest.type;
  const branches = names.map((type) => {
    const branch: Node = { type };
    for (const k of TYPE_KEYWORDS[type] ?? []) if (k in node) branch[k] = node[k];
    return branch;
  });
  for (const k of new Set(names.flatMap((t) => TYPE_KEYWORDS[t] ?? []))) delete rest[k];
  const alternatives = Array.isArray(rest.anyOf) ? undefined : branches;
  return alternatives ? { ...rest, anyOf: alternatives } : { ...rest, allOf: [{ anyOf: branches }] };
}

export function portableSchema(schema: JsonSchema): JsonSchema {
  return portableNode(schema) as JsonSchema;
}

function openNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openNode);
  if (!isNode(node)) return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    if (DATA.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.has(key) && isNode(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, openNode(sub)]));
    else out[key] = openNode(value);
  }
  return out;
}

/**
 * An imported schema as a validator takes it: the same checks, with `additionalProperties: false`
 * left out everywhere, so a field it does not name is let through, never refused.
 */
export function openSchema(schema: JsonSchema): JsonSchema {
  return openNode(schema) as JsonSchema;
}
