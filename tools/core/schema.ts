/**
 * Schemas (docs/architecture.md#schemas, "declaration is validation"): a tool's input is declared
 * once with zod; the same declaration validates calls and renders the JSON Schema that agents see,
 * so the two cannot drift. JSON Schemas written elsewhere (a v1 tool's string, a remote MCP server's
 * tool) import leniently: what zod understands validates, the rest is skipped (the tool still
 * works, unvalidated), never fatal. An imported schema that closes its objects
 * (`additionalProperties: false`) still tolerates fields it does not name, as every Toolgate tool
 * does. What is published is portable (./portable-schema.ts).
 */
import { z } from 'zod';
import { openSchema, portableSchema } from './portable-schema';
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

export interface JsonSchemaImport {
  /** The schema agents see: the given one, or an open object when it could not be understood. */
  jsonSchema: JsonSchema;
  /** A validator for what was understood; undefined when the schema could not be. */
  validator: z.ZodType | undefined;
  /** Why the schema was skipped, for logs; undefined when it imported. */
  skippedBecause: string | undefined;
}

/**
 * Imports a JSON Schema leniently (docs/architecture.md#schemas): a v1 tool's hand-written string,
 * or the schema a remote MCP server publishes for its tool. What zod understands validates; text
 * that is not JSON, or a schema zod cannot express, is skipped, never fatal.
 */
export function importJsonSchema(schema: string | object | undefined): JsonSchemaImport {
  const open: JsonSchema = { type: 'object', properties: {} };
  let parsed: unknown = schema;
  if (typeof schema === 'string' || schema === undefined) {
    if (!schema?.trim()) return { jsonSchema: open, validator: undefined, skippedBecause: 'empty schema' };
    try {
      parsed = JSON.parse(schema);
    } catch (e) {
      return { jsonSchema: open, validator: undefined, skippedBecause: `not JSON: ${(e as Error).message}` };
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { jsonSchema: open, validator: undefined, skippedBecause: 'not a JSON Schema object' };
  }
  // Opened before it becomes a validator: `additionalProperties: false` would refuse unknown fields.
  // Every other check stays in the validator; what agents see is the portable, terse rendering.
  try {
    const validator = z.fromJSONSchema(openSchema(parsed as JsonSchema) as Parameters<typeof z.fromJSONSchema>[0]);
    return {
      jsonSchema: { ...portableSchema(parsed as JsonSchema), type: 'object' },
      validator,
      skippedBecause: undefined,
    };
  } catch (e) {
    return { jsonSchema: open, validator: undefined, skippedBecause: `unsupported schema: ${(e as Error).message}` };
  }
}
