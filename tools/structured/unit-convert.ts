/** unit_convert: physical units through mathjs's unit system (the restricted instance). */
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { structuredDeclaration } from './common';

function invalid(message: string, field: string, hint: string): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', message, { hint, data: { fields: [field] } });
}

export const unitConvert = defineTool({
  id: 'unit_convert',
  title: 'Convert units',
  description: 'Converts a value between units of one dimension: "km" to "mi", "degF" to "degC", "kg*m/s^2"…',
  input: z.object({
    value: z.number().finite(),
    from: z.string().min(1).max(100),
    to: z.string().min(1).max(100),
    precision: z.number().int().min(1).max(17).default(12).describe('Significant digits.'),
  }),
  ...structuredDeclaration,
  run: async (args) => {
    // Loaded by the first conversion: mathjs holds ~31 MB of heap, which a host that never converts
    // a unit should not carry through every garbage collection (math-work.ts loads it the same way).
    const { math } = await import('../utility/math-instance');
    let source;
    try {
      source = math.unit(args.value, args.from);
    } catch (e) {
      throw invalid(
        `Unknown unit "${args.from}": ${(e as Error).message}.`,
        'from',
        'Use a unit name such as m, km, inch, kg, lb, degC, degF, s, h, km/h, MiB.',
      );
    }
    let converted;
    try {
      converted = source.to(args.to);
    } catch (e) {
      throw invalid(
        `Cannot convert "${args.from}" to "${args.to}": ${(e as Error).message}.`,
        'to',
        'Use a unit of the same dimension (length to length, mass to mass…).',
      );
    }
    const value = Number(converted.toNumber(args.to).toPrecision(args.precision));
    return jsonSuccess({ value, unit: args.to, formatted: `${value} ${args.to}`, from: `${args.value} ${args.from}` });
  },
});
