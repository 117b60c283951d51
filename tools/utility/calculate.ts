/**
 * calculate: evaluates one math expression (numbers, units, small matrices) in the restricted
 * mathjs instance. The whole computation (math-work.ts) runs in a CPU worker under a time bound.
 */
import { z } from 'zod';
import { jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { runUtility } from './cpu';

const MAX_EXPRESSION = 1000;
export const CALCULATE_BOUND_MS = 2000;

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
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
    sensitiveAction: false,
  },
  runPolicy: 'quickRead',
  run: async (args, ctx) =>
    jsonSuccess(
      await runUtility('math.calculate', {
        toolId: 'calculate',
        input: args,
        boundMs: CALCULATE_BOUND_MS,
        whenBound: 'simplify the expression',
        boundHint: 'Use smaller numbers, exponents and matrices, or split the calculation into steps.',
        signal: ctx.signal,
      }),
    ),
});
