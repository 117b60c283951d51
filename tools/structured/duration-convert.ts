/** duration_convert: ISO 8601 and human durations to any unit, and to ISO/human text. */
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { structuredDeclaration } from './common';
import { DURATION_UNITS, UNIT_MS, formatHumanDuration, formatIsoDuration, parseDuration } from './duration';

function round(n: number): number {
  return Number(n.toPrecision(12));
}

export const durationConvert = defineTool({
  id: 'duration_convert',
  title: 'Convert durations',
  description:
    'Converts a duration ("P1DT2H30M", "1h 30m", "01:30:00", or a number in unit) to every unit, ISO 8601 and words.',
  input: z.object({
    duration: z.union([z.string().min(1).max(200), z.number().finite()]),
    unit: z.enum(DURATION_UNITS).optional().describe('Of a numeric duration.'),
    to: z.enum(DURATION_UNITS).optional().describe('Also as value in this unit.'),
  }),
  ...structuredDeclaration,
  run: (args) => {
    let ms: number;
    let approximate: boolean;
    if (typeof args.duration === 'number') {
      if (!args.unit) {
        throw new ToolCallError('INVALID_ARGUMENT', 'A numeric "duration" needs a "unit" (e.g. "minutes").', {
          data: { fields: ['unit'] },
        });
      }
      ms = args.duration * UNIT_MS[args.unit];
      approximate = args.unit === 'months' || args.unit === 'years';
    } else {
      ({ ms, approximate } = parseDuration(args.duration));
    }
    return jsonSuccess({
      milliseconds: round(ms),
      seconds: round(ms / UNIT_MS.seconds),
      minutes: round(ms / UNIT_MS.minutes),
      hours: round(ms / UNIT_MS.hours),
      days: round(ms / UNIT_MS.days),
      weeks: round(ms / UNIT_MS.weeks),
      ...(args.to ? { value: round(ms / UNIT_MS[args.to]), unit: args.to } : {}),
      iso: formatIsoDuration(ms),
      human: formatHumanDuration(ms),
      approximate,
    });
  },
});
