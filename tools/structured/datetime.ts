/**
 * datetime: now / parse / format / add / diff with IANA time zones. Calendar amounts (years,
 * months, weeks, days) move the wall clock in the zone, so "+1 day" across a DST change keeps the
 * time of day; exact amounts (hours and below) move the instant. The clock is injected.
 */
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { type StructuredDeps, structuredDeclaration } from './common';
import { formatPattern, formatStyle } from './date-format';
import { parseDateInput } from './date-input';
import { type DurationParts, UNIT_MS, formatHumanDuration, formatIsoDuration, parseDuration } from './duration';
import { checkTimeZone, formatOffset, wallToEpoch, wallToUtcMs, zonedIso, zonedTime } from './zoned-time';

const dateArg = z.union([z.string().min(1).max(100), z.number()]);
const partsArg = z.object({
  years: z.number().int().optional(),
  months: z.number().int().optional(),
  weeks: z.number().int().optional(),
  days: z.number().int().optional(),
  hours: z.number().optional(),
  minutes: z.number().optional(),
  seconds: z.number().optional(),
  milliseconds: z.number().optional(),
});

function describeInstant(epochMs: number, timeZone: string) {
  const zt = zonedTime(epochMs, timeZone);
  const weekday = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long' }).format(new Date(epochMs));
  return {
    iso: new Date(epochMs).toISOString(),
    epochMs,
    epochSeconds: Math.floor(epochMs / 1000),
    timeZone,
    local: zonedIso(epochMs, timeZone),
    offset: formatOffset(zt.offsetMinutes),
    weekday,
  };
}

function addParts(start: number, parts: DurationParts, timeZone: string): number {
  for (const unit of ['years', 'months', 'weeks', 'days'] as const) {
    const v = parts[unit];
    if (v !== undefined && !Number.isInteger(v)) {
      throw new ToolCallError('INVALID_ARGUMENT', `Calendar amounts must be whole numbers; got ${v} ${unit}.`, {
        hint: 'Express fractions of days in hours (e.g. "PT36H" instead of "P1.5D").',
        data: { fields: ['amount'] },
      });
    }
  }
  const zt = zonedTime(start, timeZone);
  const monthIndex = zt.year * 12 + (zt.month - 1) + (parts.years ?? 0) * 12 + (parts.months ?? 0);
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12 + 1;
  const lastDay = new Date(
    wallToUtcMs({ year, month: month + 1, day: 0, hour: 0, minute: 0, second: 0, millisecond: 0 }),
  ).getUTCDate();
  const day = Math.min(zt.day, lastDay) + (parts.weeks ?? 0) * 7 + (parts.days ?? 0);
  const normalized = new Date(wallToUtcMs({ ...zt, year, month, day }));
  const wall = {
    year: normalized.getUTCFullYear(),
    month: normalized.getUTCMonth() + 1,
    day: normalized.getUTCDate(),
    hour: zt.hour,
    minute: zt.minute,
    second: zt.second,
    millisecond: zt.millisecond,
  };
  const exact =
    (parts.hours ?? 0) * UNIT_MS.hours +
    (parts.minutes ?? 0) * UNIT_MS.minutes +
    (parts.seconds ?? 0) * UNIT_MS.seconds +
    (parts.milliseconds ?? 0);
  const calendarMoved = wall.year !== zt.year || wall.month !== zt.month || wall.day !== zt.day;
  return (calendarMoved ? wallToEpoch(wall, timeZone) : start) + exact;
}

function calendarDays(from: number, to: number, timeZone: string): number {
  const a = zonedTime(from, timeZone);
  const b = zonedTime(to, timeZone);
  const midnight = (x: typeof a) => wallToUtcMs({ ...x, hour: 0, minute: 0, second: 0, millisecond: 0 });
  return Math.round((midnight(b) - midnight(a)) / UNIT_MS.days);
}

export function datetime(deps: StructuredDeps) {
  const now = deps.now ?? Date.now;
  return defineTool({
    id: 'datetime',
    title: 'Dates and times',
    description:
      'Dates in time zones: now, parse, format (pattern or style), add amount, diff date to to. A date is ISO 8601, ' +
      'epoch ms or "now"; one without offset is in inputTimeZone.',
    input: z.object({
      operation: z.enum(['now', 'parse', 'format', 'add', 'diff']),
      date: dateArg.default('now'),
      timeZone: z.string().default('UTC').describe('IANA zone of results.'),
      inputTimeZone: z.string().optional().describe('Of dates without offset.'),
      pattern: z.string().max(200).optional().describe('e.g. "YYYY-MM-DD HH:mm Z"; [text] is literal.'),
      style: z.enum(['full', 'long', 'medium', 'short']).optional(),
      locale: z.string().max(35).default('en-US'),
      amount: z
        .union([z.string().max(200), partsArg])
        .optional()
        .describe('"P1DT2H", "-3 days", or {"months": 1}.'),
      to: dateArg.optional(),
    }),
    ...structuredDeclaration,
    run: (args) => {
      const timeZone = checkTimeZone(args.timeZone);
      const inputZone =
        args.inputTimeZone === undefined ? timeZone : checkTimeZone(args.inputTimeZone, 'inputTimeZone');
      try {
        new Intl.DateTimeFormat(args.locale);
      } catch {
        throw new ToolCallError('INVALID_ARGUMENT', `"${args.locale}" is not a BCP 47 locale.`, {
          hint: 'Use e.g. "en-US", "de-DE", "ja-JP".',
          data: { fields: ['locale'] },
        });
      }
      const start = args.operation === 'now' ? now() : parseDateInput(args.date, inputZone, now);
      switch (args.operation) {
        case 'now':
        case 'parse':
          return jsonSuccess(describeInstant(start, timeZone));
        case 'format': {
          const text =
            args.pattern !== undefined
              ? formatPattern(start, timeZone, args.pattern, args.locale)
              : formatStyle(start, timeZone, args.style ?? 'medium', args.locale);
          return jsonSuccess({ formatted: text, ...describeInstant(start, timeZone) });
        }
        case 'add': {
          if (args.amount === undefined)
            throw new ToolCallError('INVALID_ARGUMENT', 'Operation "add" needs an "amount".', {
              data: { fields: ['amount'] },
            });
          const parts = typeof args.amount === 'string' ? parseDuration(args.amount, 'amount').parts : args.amount;
          return jsonSuccess(describeInstant(addParts(start, parts, timeZone), timeZone));
        }
        case 'diff': {
          if (args.to === undefined)
            throw new ToolCallError('INVALID_ARGUMENT', 'Operation "diff" needs "to".', { data: { fields: ['to'] } });
          const end = parseDateInput(args.to, inputZone, now, 'to');
          const ms = end - start;
          return jsonSuccess({
            milliseconds: ms,
            seconds: ms / UNIT_MS.seconds,
            minutes: ms / UNIT_MS.minutes,
            hours: ms / UNIT_MS.hours,
            days: Number((ms / UNIT_MS.days).toFixed(6)),
            calendarDays: calendarDays(start, end, timeZone),
            iso: formatIsoDuration(ms),
            human: formatHumanDuration(ms),
          });
        }
      }
    },
  });
}
