/**
 * The arguments digest of a trace span (docs/architecture.md#traces): per field its kind, size and
 * count of printable characters, plus the length of the whole arguments' JSON form — never any
 * text, so an exported trace cannot leak a secret a user pasted. Field names the tool does not
 * declare are only counted: a model may put anything in a key.
 *
 * The JSON length is computed by walking the value instead of calling JSON.stringify, because
 * this runs on every call and building the string only to measure it costs more than the walk.
 */
import type { ArgsDigest } from '../trace-span';

export type FieldDigest = ArgsDigest['fields'][string];

/** Deeper than this is treated as a cycle or abuse and not measured further. */
const MAX_DEPTH = 64;

export const UNDECLARED_FIELDS = '(undeclared)';
export const WHOLE_ARGUMENTS = '(arguments)';

export function digestArgs(args: unknown, declaredFields?: ReadonlySet<string>): ArgsDigest {
  const fields: Record<string, FieldDigest> = {};
  let totalLength: number;
  if (isRecord(args) && typeof (args as { toJSON?: unknown }).toJSON !== 'function') {
    // One pass per field gives both its digest and its share of the JSON length.
    let undeclared = 0;
    let members = 0;
    totalLength = 2;
    for (const key of Object.keys(args)) {
      const value = args[key];
      const length = jsonLength(value, 1);
      if (length !== undefined) {
        totalLength += jsonStringLength(key) + 1 + length;
        members++;
      }
      // "__proto__" would set the digest's prototype instead of naming a field; it is only counted.
      if ((declaredFields !== undefined && !declaredFields.has(key)) || key === '__proto__') undeclared++;
      else fields[key] = digestValue(value, length);
    }
    if (members > 1) totalLength += members - 1;
    if (undeclared > 0) fields[UNDECLARED_FIELDS] = { kind: 'fields', length: undeclared };
  } else {
    if (args !== undefined) fields[WHOLE_ARGUMENTS] = digestValue(args, jsonLength(args, 0));
    totalLength = jsonLength(args ?? {}, 0) ?? 0;
  }
  return { fields, totalLength };
}

function digestValue(value: unknown, jsonSize: number | undefined): FieldDigest {
  switch (typeof value) {
    case 'string':
      return { kind: 'string', length: value.length, printable: printableCount(value) };
    case 'number':
    case 'boolean':
      return { kind: typeof value, length: jsonSize ?? 0 };
    case 'object':
      if (value === null) return { kind: 'null', length: 4 };
      if (Array.isArray(value)) return { kind: 'array', length: value.length };
      return { kind: 'object', length: Object.keys(value).length };
    default:
      return { kind: typeof value, length: 0 };
  }
}

/** Characters that are not C0/C1 control characters or DEL. */
export function printableCount(text: string): number {
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) controls++;
  }
  return text.length - controls;
}

/** Length of JSON.stringify(value), or undefined where JSON.stringify would omit the value. */
export function jsonLength(value: unknown, depth: number): number | undefined {
  switch (typeof value) {
    case 'string':
      return jsonStringLength(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'bigint':
      // JSON.stringify throws on a bigint; its digits are the honest size.
      return value.toString().length;
    case 'object':
      if (value === null) return 4;
      if (depth >= MAX_DEPTH) return 0;
      return objectLength(value, depth);
    default:
      return undefined; // undefined, function, symbol
  }
}

function objectLength(value: object, depth: number): number {
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return jsonLength(toJSON.call(value, ''), depth + 1) ?? 0;
  if (Array.isArray(value)) {
    let total = 2 + Math.max(0, value.length - 1);
    for (const item of value) total += jsonLength(item, depth + 1) ?? 4;
    return total;
  }
  let total = 2;
  let members = 0;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const itemLength = jsonLength(record[key], depth + 1);
    if (itemLength === undefined) continue;
    total += jsonStringLength(key) + 1 + itemLength;
    members++;
  }
  return total + Math.max(0, members - 1);
}

/** Printable ASCII that JSON does not escape. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function jsonStringLength(text: string): number {
  if (PLAIN.test(text)) return text.length + 2;
  let total = 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x0c || c === 0x0a || c === 0x0d || c === 0x09) total += 2;
    else if (c < 0x20) total += 6;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        total += 2;
        i++;
      } else total += 6; // a lone surrogate is escaped as \uXXXX
    } else if (c >= 0xdc00 && c <= 0xdfff) total += 6;
    else total += 1;
  }
  return total;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
