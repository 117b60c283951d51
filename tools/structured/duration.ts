/**
 * Durations: ISO 8601 (`P1DT2H30M`, `PT0.5S`, `-P2W`) and human forms (`1h 30m`, `90 minutes`,
 * `2 days 3 hrs`, `01:30:00`) to milliseconds and back. Years and months have no fixed length;
 * they count as the Gregorian averages (365.2425 and 30.436875 days) and mark the result approximate.
 * Written here because none of the installed packages parses ISO 8601 durations (Temporal is not
 * in Node 20), and the grammar is one regular expression.
 */
import { ToolCallError } from '../core/result';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MONTH = 30.436875 * DAY;
const YEAR = 365.2425 * DAY;

export const DURATION_UNITS = [
  'milliseconds',
  'seconds',
  'minutes',
  'hours',
  'days',
  'weeks',
  'months',
  'years',
] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];

export const UNIT_MS: Record<DurationUnit, number> = {
  milliseconds: 1,
  seconds: SECOND,
  minutes: MINUTE,
  hours: HOUR,
  days: DAY,
  weeks: WEEK,
  months: MONTH,
  years: YEAR,
};

const ALIASES: Record<string, DurationUnit> = {};
const ALIAS_TABLE: Record<DurationUnit, string[]> = {
  milliseconds: ['ms', 'msec', 'msecs', 'millisecond', 'milliseconds'],
  seconds: ['s', 'sec', 'secs', 'second', 'seconds'],
  minutes: ['m', 'min', 'mins', 'minute', 'minutes'],
  hours: ['h', 'hr', 'hrs', 'hour', 'hours'],
  days: ['d', 'day', 'days'],
  weeks: ['w', 'wk', 'wks', 'week', 'weeks'],
  months: ['mo', 'mon', 'month', 'months'],
  years: ['y', 'yr', 'yrs', 'year', 'years'],
};
for (const [unit, names] of Object.entries(ALIAS_TABLE) as Array<[DurationUnit, string[]]>)
  for (const n of names) ALIASES[n] = unit;

export type DurationParts = Partial<Record<DurationUnit, number>>;

/** A duration as written: its parts by unit, each signed. */
export interface ParsedDuration {
  parts: DurationParts;
  ms: number;
  approximate: boolean;
}

function invalid(text: string, field: string): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', `"${text.slice(0, 80)}" (in "${field}") is not a duration.`, {
    hint:
      'Write an ISO 8601 duration ("P1DT2H30M", "PT45S") or a ' +
      'human one ("1h 30m", "90 minutes", "2 days", "01:30:00").',
    data: { fields: [field] },
  });
}

export function unitFromName(name: string): DurationUnit | undefined {
  return ALIASES[name.trim().toLowerCase()];
}

/** A number of one unit: digits, with a decimal fraction after "." or ",". */
const N = String.raw`(\d+(?:[.,]\d+)?)`;
const ISO = new RegExp(`^([-+])?P(?:${N}Y)?(?:${N}M)?(?:${N}W)?(?:${N}D)?(?:T(?:${N}H)?(?:${N}M)?(?:${N}S)?)?$`, 'i');
const ISO_UNITS: DurationUnit[] = ['years', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds'];

function signed(parts: DurationParts, negative: boolean): DurationParts {
  if (!negative) return parts;
  return Object.fromEntries(Object.entries(parts).map(([u, v]) => [u, -(v as number)])) as DurationParts;
}

function parseIso(text: string): DurationParts | undefined {
  const m = ISO.exec(text);
  if (!m || /T$/i.test(text) || text.replace(/^[-+]/, '').length <= 1) return undefined;
  const parts: DurationParts = {};
  ISO_UNITS.forEach((unit, i) => {
    const raw = m[i + 2];
    if (raw !== undefined) parts[unit] = Number(raw.replace(',', '.'));
  });
  return signed(parts, m[1] === '-');
}

function parseClock(text: string): DurationParts | undefined {
  const m = /^(-)?(\d+):([0-5]\d)(?::([0-5]\d(?:\.\d+)?))?$/.exec(text);
  if (!m) return undefined;
  return signed({ hours: Number(m[2]), minutes: Number(m[3]), seconds: Number(m[4] ?? '0') }, m[1] === '-');
}

function parseHuman(text: string): DurationParts | undefined {
  const body = text.replace(/^[-+]\s*/, '').replace(/\band\b|,/gi, ' ');
  const token = /(\d+(?:\.\d+)?|\.\d+)\s*([a-z]+)/gi;
  const parts: DurationParts = {};
  let consumed = '';
  for (const m of body.matchAll(token)) {
    const unit = unitFromName(m[2] ?? '');
    if (!unit) return undefined;
    parts[unit] = (parts[unit] ?? 0) + Number(m[1]);
    consumed += m[0];
  }
  if (consumed === '' || consumed.replace(/\s+/g, '') !== body.replace(/\s+/g, '')) return undefined;
  return signed(parts, text.startsWith('-'));
}

export function partsToMs(parts: DurationParts): number {
  return Object.entries(parts).reduce((sum, [unit, v]) => sum + (v as number) * UNIT_MS[unit as DurationUnit], 0);
}

export function parseDuration(text: string, field = 'duration'): ParsedDuration {
  const t = text.trim();
  const parts = parseIso(t) ?? parseClock(t) ?? parseHuman(t);
  const ms = parts ? partsToMs(parts) : NaN;
  if (!parts || !Number.isFinite(ms)) throw invalid(text, field);
  return { parts, ms, approximate: parts.years !== undefined || parts.months !== undefined };
}

/** ISO 8601 with days as the largest unit (months and years are not exact). */
export function formatIsoDuration(ms: number): string {
  if (ms === 0) return 'PT0S';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  const days = Math.floor(rest / DAY);
  rest -= days * DAY;
  const hours = Math.floor(rest / HOUR);
  rest -= hours * HOUR;
  const minutes = Math.floor(rest / MINUTE);
  rest -= minutes * MINUTE;
  const seconds = Math.round(rest) / SECOND;
  const date = days ? `${days}D` : '';
  const time = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${seconds ? `${seconds}S` : ''}`;
  return `${sign}P${date}${time ? `T${time}` : ''}`;
}

export function formatHumanDuration(ms: number): string {
  if (ms === 0) return '0 seconds';
  const parts: string[] = [];
  let rest = Math.abs(ms);
  for (const [unit, size] of [
    ['day', DAY],
    ['hour', HOUR],
    ['minute', MINUTE],
    ['second', SECOND],
  ] as const) {
    const n = unit === 'second' ? Math.round((rest / size) * 1000) / 1000 : Math.floor(rest / size);
    if (n > 0) parts.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
    rest -= unit === 'second' ? rest : n * size;
  }
  if (parts.length === 0) parts.push(`${Math.abs(ms)} milliseconds`);
  return `${ms < 0 ? '-' : ''}${parts.join(' ')}`;
}
