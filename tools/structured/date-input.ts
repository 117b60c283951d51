/**
 * Reading a date argument: epoch milliseconds, "now", ISO 8601 with an offset (an absolute
 * instant), ISO 8601 without one (a wall time in the given zone), or RFC 2822 / other text that
 * Date.parse understands unambiguously because it carries its zone.
 */
import { ToolCallError } from '../core/result';
import { type WallTime, wallToEpoch, wallToUtcMs } from './zoned-time';

const DATE = String.raw`([+-]\d{6}|\d{4})-(\d{2})-(\d{2})`;
const TIME = String.raw`(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?`;
const ZONE = String.raw`\s*(Z|[+-]\d{2}(?::?\d{2})?)?`;
const ISO_DATE = new RegExp(`^${DATE}${TIME}${ZONE}$`, 'i');

export function invalidDate(value: unknown, field: string): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', `"${String(value).slice(0, 80)}" (in "${field}") is not a date.`, {
    hint:
      'Use ISO 8601 ("2025-07-01T09:30:00", "2025-07-01T09:30:00+02:00", ' +
      '"2025-07-01"), epoch milliseconds, or "now".',
    data: { fields: [field] },
  });
}

function offsetMinutes(text: string): number {
  if (text.toUpperCase() === 'Z') return 0;
  const sign = text.startsWith('-') ? -1 : 1;
  const digits = text.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
}

function isoInstant(text: string, timeZone: string, field: string): number | undefined {
  const m = ISO_DATE.exec(text.trim());
  if (!m) return undefined;
  const wall: WallTime = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? '0'),
    minute: Number(m[5] ?? '0'),
    second: Number(m[6] ?? '0'),
    millisecond: Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3)),
  };
  const roundTrip = new Date(wallToUtcMs(wall));
  const valid =
    wall.hour <= 23 &&
    wall.minute <= 59 &&
    wall.second <= 59 &&
    roundTrip.getUTCMonth() + 1 === wall.month &&
    roundTrip.getUTCDate() === wall.day;
  if (!valid) throw invalidDate(text, field);
  if (m[8] !== undefined) return wallToUtcMs(wall) - offsetMinutes(m[8]) * 60_000;
  return wallToEpoch(wall, timeZone);
}

/** The instant a date argument names; wall times without an offset are read in `timeZone`. */
export function parseDateInput(value: string | number, timeZone: string, now: () => number, field = 'date'): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Math.abs(value) > 8.64e15) throw invalidDate(value, field);
    return value;
  }
  const text = value.trim();
  if (text.toLowerCase() === 'now') return now();
  const iso = isoInstant(text, timeZone, field);
  if (iso !== undefined) return iso;
  const hasZone = /(GMT|UTC|Z|[+-]\d{2}:?\d{2})\s*$/i.test(text) || /\b(GMT|UTC)\b/i.test(text);
  const parsed = Date.parse(text);
  if (!hasZone || Number.isNaN(parsed)) throw invalidDate(text, field);
  return parsed;
}
