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
    'Evaluates one math expression: arithmetic, functions (sqrt, log, mean…), units ("5 cm to inch"), small matrices.',
  input: z.object({
    expression: z.string().min(1).max(MAX_EXPRESSION).describe('e.g. "sqrt(2) * 3^2", "mean([4, 8, 15])".'),
    variables: z.record(z.string(), z.number()).default({}),
    precision: z.number().int().min(1).max(64).default(14).describe('Significant digits.'),
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
