/**
 * Wall-clock time in IANA time zones with nothing but Intl (Node 20 has no Temporal, and no
 * time-zone library is installed): zone offsets are read from formatToParts, and a local wall time
 * is turned into an instant by correcting the UTC guess with the zone's offset twice, which lands
 * on the right side of a DST change.
 */
import { ToolCallError } from '../core/result';

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

export interface ZonedTime extends WallTime {
  weekday: number;
  offsetMinutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
      era: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's canonical name, or INVALID_ARGUMENT naming the field. */
export function checkTimeZone(timeZone: string, field = 'timeZone'): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    throw new ToolCallError('INVALID_ARGUMENT', `"${timeZone.slice(0, 60)}" is not an IANA time zone.`, {
      hint: 'Use a zone name such as "UTC", "Europe/Berlin", "America/New_York" or "Asia/Tokyo".',
      data: { fields: [field] },
    });
  }
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export function zonedTime(epochMs: number, timeZone: string): ZonedTime {
  const parts: Record<string, string> = {};
  for (const p of formatterFor(timeZone).formatToParts(new Date(epochMs))) parts[p.type] = p.value;
  const bce = parts.era === 'BC' || parts.era === 'B';
  const year = bce ? 1 - Number(parts.year) : Number(parts.year);
  const millisecond = ((epochMs % 1000) + 1000) % 1000;
  const wall: WallTime = {
    year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond,
  };
  const offsetMinutes = Math.round((wallToUtcMs(wall) - epochMs) / 60_000);
  return { ...wall, weekday: WEEKDAYS.indexOf(parts.weekday ?? ''), offsetMinutes };
}

/** Wall time read as if it were UTC. */
export function wallToUtcMs(w: WallTime): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, w.millisecond);
  return d.getTime();
}

/**
 * The instant at which the zone's clocks show this wall time; a skipped hour resolves to just after the gap, a repeated
 * hour to one of its two instants.
 */
export function wallToEpoch(w: WallTime, timeZone: string): number {
  const asUtc = wallToUtcMs(w);
  const first = asUtc - zonedTime(asUtc, timeZone).offsetMinutes * 60_000;
  const second = asUtc - zonedTime(first, timeZone).offsetMinutes * 60_000;
  return second;
}

export function formatOffset(minutes: number, colon = true): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${sign}${hh}${colon ? ':' : ''}${mm}`;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** ISO 8601 local time with the zone's offset, e.g. 2025-03-30T03:00:00+02:00 (milliseconds only when set). */
export function zonedIso(epochMs: number, timeZone: string): string {
  const z = zonedTime(epochMs, timeZone);
  const year = z.year >= 0 && z.year <= 9999 ? pad(z.year, 4) : `${z.year < 0 ? '-' : '+'}${pad(Math.abs(z.year), 6)}`;
  const ms = z.millisecond ? `.${pad(z.millisecond, 3)}` : '';
  const time = `${pad(z.hour)}:${pad(z.minute)}:${pad(z.second)}${ms}`;
  return `${year}-${pad(z.month)}-${pad(z.day)}T${time}${formatOffset(z.offsetMinutes)}`;
}
