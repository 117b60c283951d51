/**
 * A typed reader over raw arguments (docs/architecture.md#schemas, ToolArguments), for tools whose
 * schema is legacy or dynamic: a missing or mistyped argument throws a ToolCallError
 * INVALID_ARGUMENT that names the field, which the executor returns as a result.
 */
import { ToolCallError } from './result';

type Raw = Record<string, unknown>;

export class ToolArguments {
  private readonly raw: Raw;

  constructor(raw: unknown) {
    this.raw = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Raw) : {};
  }

  has(name: string): boolean {
    return this.raw[name] !== undefined && this.raw[name] !== null;
  }

  string(name: string): string {
    return this.require(name, 'a string', (v): v is string => typeof v === 'string');
  }
  optionalString(name: string): string | undefined {
    return this.optional(name, 'a string', (v): v is string => typeof v === 'string');
  }

  number(name: string): number {
    return this.require(name, 'a number', isFiniteNumber);
  }
  optionalNumber(name: string): number | undefined {
    return this.optional(name, 'a number', isFiniteNumber);
  }

  integer(name: string): number {
    return this.require(name, 'an integer', (v): v is number => Number.isInteger(v));
  }
  optionalInteger(name: string): number | undefined {
    return this.optional(name, 'an integer', (v): v is number => Number.isInteger(v));
  }

  boolean(name: string): boolean {
    return this.require(name, 'a boolean', (v): v is boolean => typeof v === 'boolean');
  }
  optionalBoolean(name: string): boolean | undefined {
    return this.optional(name, 'a boolean', (v): v is boolean => typeof v === 'boolean');
  }

  array(name: string): unknown[] {
    return this.require(name, 'an array', Array.isArray);
  }

  object(name: string): Raw {
    return this.require(name, 'an object', isPlainObject);
  }

  private require<T>(name: string, expected: string, is: (v: unknown) => v is T): T {
    const v = this.raw[name];
    if (v === undefined || v === null)
      throw invalid(name, `missing required argument "${name}" (expected ${expected})`);
    if (!is(v)) throw invalid(name, `argument "${name}" must be ${expected}, got ${kindOf(v)}`);
    return v;
  }

  private optional<T>(name: string, expected: string, is: (v: unknown) => v is T): T | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null) return undefined;
    if (!is(v)) throw invalid(name, `argument "${name}" must be ${expected}, got ${kindOf(v)}`);
    return v;
  }
}

function invalid(field: string, message: string): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', `Invalid arguments: ${message}.`, { data: { fields: [field] } });
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function isPlainObject(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function kindOf(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)?.slice(0, 40)}`;
}
