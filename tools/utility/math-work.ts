/**
 * calculate's whole computation, run in a CPU worker: variables checked, the expression parsed and
 * vetted (math-guard.ts) before it is compiled, evaluated, and the value formatted. The worker's
 * bound, not anything here, stops an evaluation that would run for too long.
 */
import { ToolCallError } from '../core/result';
import { ALLOWED_FUNCTIONS, CONSTANTS, vetExpression } from './math-guard';
import { DISABLED_FUNCTIONS, math, parseExpression } from './math-instance';

const VARIABLE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;

function invalid(message: string, hint?: string, field = 'expression'): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', message, { ...(hint ? { hint } : {}), data: { fields: [field] } });
}

function checkVariables(variables: Record<string, number>): Map<string, number> {
  const scope = new Map<string, number>();
  for (const [name, value] of Object.entries(variables)) {
    const field = `variables.${name}`;
    if (!VARIABLE_NAME.test(name))
      throw invalid(
        `Variable name "${name}" is not allowed.`,
        'Use letters, digits and "_", starting with a letter.',
        field,
      );
    if (
      ALLOWED_FUNCTIONS.has(name) ||
      CONSTANTS.has(name) ||
      DISABLED_FUNCTIONS.has(name) ||
      name in Object.prototype
    ) {
      throw invalid(`Variable name "${name}" is reserved.`, 'Choose another name.', field);
    }
    if (!Number.isFinite(value)) throw invalid(`Variable "${name}" must be a finite number.`, undefined, field);
    scope.set(name, value);
  }
  return scope;
}

function allFinite(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value) || Number.isNaN(value);
  if (math.isMatrix(value)) return allFinite(value.toArray());
  if (Array.isArray(value)) return value.every(allFinite);
  if (math.isUnit(value)) return value.value === null || allFinite(value.value);
  return true;
}

function toJson(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (math.isMatrix(value)) return value.toJSON().data;
  return math.format(value, { precision: 14 });
}

export interface CalculateInput {
  expression: string;
  variables: Record<string, number>;
  precision: number;
}

export interface CalculateOutput {
  expression: string;
  result: string;
  value: unknown;
}

export function calculateTask(input: CalculateInput): CalculateOutput {
  const scope = checkVariables(input.variables);
  let node;
  try {
    node = parseExpression(input.expression);
  } catch (e) {
    throw invalid(
      `The expression cannot be parsed: ${(e as Error).message}.`,
      'Check brackets and operators, e.g. "(1 + 2) * 3".',
    );
  }
  vetExpression(node, new Set(scope.keys()));
  const compiled = node.compile();
  let value: unknown;
  try {
    value = compiled.evaluate(scope) as unknown;
  } catch (e) {
    if (e instanceof RangeError)
      throw invalid(`The expression is too large to evaluate: ${e.message}.`, 'Simplify the expression.');
    throw invalid(
      `The expression cannot be evaluated: ${(e as Error).message}.`,
      'Check the functions, units and values used.',
    );
  }
  if (typeof value === 'function' || value === undefined) throw invalid('The expression does not produce a value.');
  if (!allFinite(value))
    throw invalid(
      'The result is not finite (division by zero, or overflow beyond ±1.8e308 from a huge exponent or factorial).',
      'Avoid dividing by zero; use smaller numbers or exponents.',
    );
  return {
    expression: input.expression,
    result: math.format(value, { precision: input.precision }),
    value: toJson(value),
  };
}
