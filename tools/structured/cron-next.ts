/** cron_next: the next fire times of a cron expression in a time zone (`cron-parser` v5). */
import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { type StructuredDeps, structuredDeclaration } from './common';
import { parseDateInput } from './date-input';
import { checkTimeZone, zonedIso } from './zoned-time';

export function cronNext(deps: StructuredDeps) {
  const now = deps.now ?? Date.now;
  return defineTool({
    id: 'cron_next',
    title: 'Next cron fire times',
    description: 'Lists the next times a cron expression (5 fields, or 6 with seconds first) fires in a time zone.',
    input: z.object({
      expression: z.string().min(1).max(200).describe('e.g. "*/15 9-17 * * MON-FRI".'),
      count: z.number().int().min(1).max(100).default(5),
      timeZone: z.string().default('UTC').describe('IANA zone.'),
      from: z
        .union([z.string().min(1).max(100), z.number()])
        .default('now')
        .describe('ISO 8601, epoch milliseconds or "now".'),
    }),
    ...structuredDeclaration,
    run: (args) => {
      const timeZone = checkTimeZone(args.timeZone);
      const start = parseDateInput(args.from, timeZone, now, 'from');
      let times: number[];
      try {
        const expr = CronExpressionParser.parse(args.expression, { currentDate: new Date(start), tz: timeZone });
        times = expr.take(args.count).map((d) => d.getTime());
      } catch (e) {
        const message = (e as Error).message;
        const never = /loop limit|time span/i.test(message);
        throw new ToolCallError(
          'INVALID_ARGUMENT',
          `Cron expression "${args.expression}" ${never ? 'never fires' : `is invalid: ${message}`}.`,
          {
            hint: never
              ? 'The fields cannot all match on a real date (e.g. 30 February); fix the day or month.'
              : 'Use 5 fields "minute hour day month weekday" (e.g. "0 9 * * MON-FRI") or 6 with seconds first.',
            data: { fields: ['expression'] },
          },
        );
      }
      return jsonSuccess({
        expression: args.expression,
        timeZone,
        from: new Date(start).toISOString(),
        times: times.map((t) => ({ local: zonedIso(t, timeZone), utc: new Date(t).toISOString() })),
      });
    },
  });
}
