/**
 * Schemas (docs/architecture.md#schemas, "declaration is validation"): a tool's input is declared
 * once with zod; the same declaration validates calls and renders the JSON Schema that agents see,
 * so the two cannot drift. Legacy hand-written JSON Schema strings import leniently: what parses
 * validates, what does not parse is skipped (the tool still works, unvalidated), never fatal. An
 * imported schema that closes its objects (`additionalProperties: false`) still tolerates fields it
 * does not name, as every Toolgate tool does. What is published is portable (./portable-schema.ts).
 */
import { z } from 'zod';
import { portableSchema } from './portable-schema';
import { type ToolFailure, failure } from './result';

export type JsonSchema = Record<string, unknown>;

export type Validation<T> = { ok: true; value: T } | ToolFailure;

/** `steps[2].args.name` — the path of a field the way a model would write it. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(arguments)';
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = formatPath(issue.path);
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message))
    return `missing required argument "${field}"`;
  const message = issue.message.replace(/^Invalid input: /, '');
  return `argument "${field}": ${message}`;
}

export function validateWith<T>(schema: z.ZodType<T>, args: unknown): Validation<T> {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues;
  const fields = issues.map((i) => formatPath(i.path));
  return failure('INVALID_ARGUMENT', `Invalid arguments: ${issues.map(describeIssue).join('; ')}.`, {
    data: { fields },
  });
}

/** JSON Schema for a zod schema as MCP clients expect it (the input shape, portable and terse). */
export function renderJsonSchema(schema: z.ZodType): JsonSchema {
  return portableSchema(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
}

export interface LegacySchemaImport {
  /** The schema agents see: the parsed one, or an open object when it did not parse. */
  jsonSchema: JsonSchema;
  /** A validator for what parsed; undefined when the legacy text could not be understood. */
  validator: z.ZodType | undefined;
  /** Why the legacy text was skipped, for logs; undefined when it imported. */
  skippedBecause: string | undefined;
}

/** Imports a v1 hand-written JSON Schema string leniently (docs/architecture.md#schemas). */
export function importLegacySchema(text: string | undefined): LegacySchemaImport {
  const open: JsonSchema = { type: 'object', properties: {} };
  if (!text?.trim()) return { jsonSchema: open, validator: undefined, skippedBecause: 'empty schema' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { jsonSchema: open, validator: undefined, skippedBecause: `not JSON: ${(e as Error).message}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { jsonSchema: open, validator: undefined, skippedBecause: 'not a JSON Schema object' };
  }
  // Opened before it becomes a validator: `additionalProperties: false` would refuse unknown fields.
  const opened = portableSchema(parsed as JsonSchema);
  try {
    const validator = z.fromJSONSchema(opened as Parameters<typeof z.fromJSONSchema>[0]);
    return { jsonSchema: { ...opened, type: 'object' }, validator, skippedBecause: undefined };
  } catch (e) {
    return { jsonSchema: open, validator: undefined, skippedBecause: `unsupported schema: ${(e as Error).message}` };
  }
}
