/**
 * Formatting an instant in a zone: a token pattern (YYYY-MM-DD HH:mm:ss Z, with [literal] text) or
 * an Intl style. The tokens are the common Moment/Day.js set; Intl has no pattern formatting.
 */
import { type ZonedTime, formatOffset, zonedTime } from './zoned-time';

const TOKENS = /\[([^\]]*)]|YYYY|YY|MMMM|MMM|MM|M|DD|D|dddd|ddd|HH|H|hh|h|mm|m|ss|s|SSS|A|a|ZZ|Z/g;

function names(
  locale: string,
  timeZone: string,
  epochMs: number,
): { month: [string, string]; weekday: [string, string] } {
  const d = new Date(epochMs);
  const read = (opts: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, { timeZone, ...opts }).format(d);
  return {
    month: [read({ month: 'long' }), read({ month: 'short' })],
    weekday: [read({ weekday: 'long' }), read({ weekday: 'short' })],
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function formatPattern(epochMs: number, timeZone: string, pattern: string, locale = 'en-US'): string {
  const z: ZonedTime = zonedTime(epochMs, timeZone);
  let cached: ReturnType<typeof names> | undefined;
  const n = () => (cached ??= names(locale, timeZone, epochMs));
  const h12 = z.hour % 12 === 0 ? 12 : z.hour % 12;
  return pattern.replace(TOKENS, (token, literal: string | undefined) => {
    if (literal !== undefined) return literal;
    switch (token) {
      case 'YYYY':
        return pad(z.year, 4);
      case 'YY':
        return pad(((z.year % 100) + 100) % 100);
      case 'MMMM':
        return n().month[0];
      case 'MMM':
        return n().month[1];
      case 'MM':
        return pad(z.month);
      case 'M':
        return String(z.month);
      case 'DD':
        return pad(z.day);
      case 'D':
        return String(z.day);
      case 'dddd':
        return n().weekday[0];
      case 'ddd':
        return n().weekday[1];
      case 'HH':
        return pad(z.hour);
      case 'H':
        return String(z.hour);
      case 'hh':
        return pad(h12);
      case 'h':
        return String(h12);
      case 'mm':
        return pad(z.minute);
      case 'm':
        return String(z.minute);
      case 'ss':
        return pad(z.second);
      case 's':
        return String(z.second);
      case 'SSS':
        return pad(z.millisecond, 3);
      case 'A':
        return z.hour < 12 ? 'AM' : 'PM';
      case 'a':
        return z.hour < 12 ? 'am' : 'pm';
      case 'ZZ':
        return formatOffset(z.offsetMinutes, false);
      case 'Z':
        return formatOffset(z.offsetMinutes);
      default:
        return token;
    }
  });
}

export type DateStyle = 'full' | 'long' | 'medium' | 'short';

export function formatStyle(epochMs: number, timeZone: string, style: DateStyle, locale = 'en-US'): string {
  return new Intl.DateTimeFormat(locale, { timeZone, dateStyle: style, timeStyle: style }).format(new Date(epochMs));
}
