/**
 * Turns a tool's JSON Schema (as z.toJSONSchema renders it) into form fields, and the form's values
 * back into call arguments. Scalars get inputs; arrays, objects and unions the form cannot express
 * become JSON text areas. Empty optional fields are left out, and a missing required field is not
 * blocked here: the pipeline's schema validation is the authority and answers INVALID_ARGUMENT
 * with a hint, which is what an agent would see.
 */
export type FieldKind = 'string' | 'text' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  options?: Array<string | number>;
  defaultValue?: unknown;
  minimum?: number;
  maximum?: number;
}

export type FormValue = string | boolean;
export type FormValues = Record<string, FormValue>;

type JsonSchema = Record<string, unknown>;

function isSchema(v: unknown): v is JsonSchema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A union with null (or a single variant) is the variant; other unions stay unions. */
function unwrap(schema: JsonSchema): JsonSchema {
  const variants = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(variants)) {
    const real = variants.filter((v) => isSchema(v) && v.type !== 'null');
    if (real.length === 1 && isSchema(real[0]))
      return {
        ...real[0],
        description: schema.description ?? real[0].description,
        default: schema.default ?? real[0].default,
      };
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    if (types.length === 1) return { ...schema, type: types[0] };
  }
  return schema;
}

const MULTILINE_NAMES =
  /^(content|text|body|data|script|source|input|csv|xml|html|json|template|diff|old_text|new_text|pattern_text)$/i;

function kindOf(name: string, schema: JsonSchema): { kind: FieldKind; options?: Array<string | number> } {
  const values = Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : undefined;
  if (values?.every((v) => typeof v === 'string' || typeof v === 'number'))
    return { kind: 'enum', options: values as Array<string | number> };
  switch (schema.type) {
    case 'string': {
      const long = (typeof schema.maxLength === 'number' && schema.maxLength > 500) || MULTILINE_NAMES.test(name);
      return { kind: long ? 'text' : 'string' };
    }
    case 'integer':
      return { kind: 'integer' };
    case 'number':
      return { kind: 'number' };
    case 'boolean':
      return { kind: 'boolean' };
    default:
      return { kind: 'json' };
  }
}

export function fieldsFromSchema(schema: Record<string, unknown>): FormField[] {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
  );
  return Object.entries(properties).map(([name, raw]) => {
    const prop = unwrap(isSchema(raw) ? raw : {});
    const { kind, options } = kindOf(name, prop);
    const field: FormField = { name, kind, required: required.has(name) };
    if (typeof prop.description === 'string') field.description = prop.description;
    if (options) field.options = options;
    if (prop.default !== undefined) field.defaultValue = prop.default;
    if (typeof prop.minimum === 'number') field.minimum = prop.minimum;
    if (typeof prop.maximum === 'number') field.maximum = prop.maximum;
    return field;
  });
}

export function initialValues(fields: readonly FormField[]): FormValues {
  return Object.fromEntries(
    fields.map((f) => [f.name, f.kind === 'boolean' && f.required ? f.defaultValue === true : '']),
  );
}

export type BuildResult = { ok: true; args: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

export function buildArgs(fields: readonly FormField[], values: FormValues): BuildResult {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (typeof v === 'boolean') {
      args[f.name] = v;
      continue;
    }
    if (v === undefined || v === '') continue;
    switch (f.kind) {
      case 'number':
      case 'integer': {
        const n = Number(v);
        // Passed on as typed when it is not a number: the pipeline names the field in its error.
        args[f.name] = Number.isFinite(n) ? n : v;
        break;
      }
      case 'boolean':
        args[f.name] = v === 'true';
        break;
      case 'enum':
        args[f.name] = f.options?.find((o) => String(o) === v) ?? v;
        break;
      case 'json':
        try {
          args[f.name] = JSON.parse(v) as unknown;
        } catch {
          errors[f.name] = 'Not valid JSON. Write an array like ["a", "b"] or an object like {"key": "value"}.';
        }
        break;
      default:
        args[f.name] = v;
    }
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, args };
}

/**
 * Whether arguments survive a trip through the fields unchanged: every key is a field, and values
 * read back as they were (a JSON field holds anything; a text field holds only a string).
 */
export function fitsFields(fields: readonly FormField[], args: Record<string, unknown>): boolean {
  const built = buildArgs(fields, valuesFromArgs(fields, args));
  return built.ok && JSON.stringify(sortKeys(built.args)) === JSON.stringify(sortKeys(args));
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

/** The form's values from arguments (switching back from raw JSON). Unknown keys are dropped. */
export function valuesFromArgs(fields: readonly FormField[], args: Record<string, unknown>): FormValues {
  const values = initialValues(fields);
  for (const f of fields) {
    const v = args[f.name];
    if (v === undefined) continue;
    if (f.kind === 'boolean') values[f.name] = f.required ? v === true : String(v === true);
    else if (f.kind === 'json') values[f.name] = JSON.stringify(v, null, 2);
    else values[f.name] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  return values;
}
