/**
 * calculate: evaluates one math expression (numbers, units, small matrices) in the restricted
 * mathjs instance. The tree is vetted before it is compiled, and evaluation runs under a time bound.
 */
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { BoundExceeded, runBounded } from '../common/time-bound';
import { ALLOWED_FUNCTIONS, CONSTANTS, vetExpression } from './math-guard';
import { DISABLED_FUNCTIONS, math, parseExpression } from './math-instance';

const MAX_EXPRESSION = 1000;
const EVALUATION_BOUND_MS = 1000;
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

export const calculate = defineTool({
  id: 'calculate',
  title: 'Calculate',
  description:
    'Evaluates one math expression: arithmetic (+ - * / ^ % !), functions (sqrt, abs, round, exp, log, sin, cos, gcd, mod, min, max, sum, mean…), units ("5 cm to inch", "60 km/h * 2 h"), constants (pi, e) and small matrices ([1,2;3,4], det, inv). Pass named values in "variables". Definitions, assignments and code are refused.',
  input: z.object({
    expression: z
      .string()
      .min(1)
      .max(MAX_EXPRESSION)
      .describe('The expression, e.g. "sqrt(2) * 3^2", "12 inch to cm", "mean([4, 8, 15])".'),
    variables: z
      .record(z.string(), z.number())
      .default({})
      .describe('Named numeric values the expression may use, e.g. {"x": 3, "rate": 0.07}.'),
    precision: z
      .number()
      .int()
      .min(1)
      .max(64)
      .default(14)
      .describe('Significant digits in the formatted result (default 14).'),
  }),
  metadata: { category: 'utility', risk: 'LOW' },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  runPolicy: 'quickRead',
  run: (args) => {
    const scope = checkVariables(args.variables);
    let node;
    try {
      node = parseExpression(args.expression);
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
      value = runBounded(() => compiled.evaluate(scope) as unknown, EVALUATION_BOUND_MS);
    } catch (e) {
      if (e instanceof BoundExceeded)
        throw invalid(
          `The expression did not finish within ${EVALUATION_BOUND_MS} ms.`,
          'Simplify the expression or use smaller numbers and matrices.',
        );
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
    return jsonSuccess({
      expression: args.expression,
      result: math.format(value, { precision: args.precision }),
      value: toJson(value),
    });
  },
});
