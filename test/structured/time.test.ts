// Rule guarded: datetime and cron_next compute in IANA time zones from an injected clock: calendar
// arithmetic keeps the wall-clock time across DST changes, and bad dates, zones and cron
// expressions are INVALID_ARGUMENT naming the field.
import { describe, expect, it } from 'vitest';
import { structuredTools } from '../../tools/structured';
import { harness } from './harness';

const NOW = Date.UTC(2025, 2, 29, 12, 0, 0); // Saturday 29 March 2025, the day before Europe's DST start
const h = harness(structuredTools({ workspaceRoot: process.cwd(), now: () => NOW }));

describe('datetime refuses', () => {
  it('unknown zones, impossible dates, bad locales and missing operands', async () => {
    expect(
      (await h.fails('datetime', { operation: 'now', timeZone: 'Mars/Olympus' }, 'INVALID_ARGUMENT')).data?.fields,
    ).toEqual(['timeZone']);
    for (const date of ['2025-02-30', '2025-13-01', '2025-01-01T24:00', 'next tuesday', 'Jan 5 2025']) {
      await h.fails('datetime', { operation: 'parse', date }, 'INVALID_ARGUMENT');
    }
    await h.fails('datetime', { operation: 'format', locale: 'not a locale!' }, 'INVALID_ARGUMENT');
    await h.fails('datetime', { operation: 'add' }, 'INVALID_ARGUMENT');
    await h.fails('datetime', { operation: 'diff' }, 'INVALID_ARGUMENT');
    await h.fails('datetime', { operation: 'add', amount: 'P1.5D' }, 'INVALID_ARGUMENT');
    await h.fails('datetime', { operation: 'add', amount: 'a while' }, 'INVALID_ARGUMENT');
  });
});

describe('datetime', () => {
  it('reads the injected clock for now, in the requested zone', async () => {
    expect(await h.ok('datetime', { operation: 'now', timeZone: 'Europe/Berlin' })).toEqual({
      iso: '2025-03-29T12:00:00.000Z',
      epochMs: NOW,
      epochSeconds: NOW / 1000,
      timeZone: 'Europe/Berlin',
      local: '2025-03-29T13:00:00+01:00',
      offset: '+01:00',
      weekday: 'Saturday',
    });
  });
  it('parses wall times in the input zone and instants with offsets', async () => {
    expect(
      await h.ok('datetime', { operation: 'parse', date: '2025-07-01T09:30', timeZone: 'America/New_York' }),
    ).toMatchObject({ iso: '2025-07-01T13:30:00.000Z', offset: '-04:00' });
    expect(await h.ok('datetime', { operation: 'parse', date: '2025-07-01T09:30:00+02:00' })).toMatchObject({
      iso: '2025-07-01T07:30:00.000Z',
    });
    expect(
      await h.ok('datetime', {
        operation: 'parse',
        date: '2025-07-01T09:30',
        inputTimeZone: 'Asia/Tokyo',
        timeZone: 'UTC',
      }),
    ).toMatchObject({ iso: '2025-07-01T00:30:00.000Z' });
    expect(await h.ok('datetime', { operation: 'parse', date: 0 })).toMatchObject({ iso: '1970-01-01T00:00:00.000Z' });
    expect(await h.ok('datetime', { operation: 'parse', date: 'Tue, 01 Jul 2025 10:00:00 GMT' })).toMatchObject({
      iso: '2025-07-01T10:00:00.000Z',
    });
  });
  it('adds a calendar day across the DST change keeping the wall time, and 24 hours as 24 hours', async () => {
    const base = { operation: 'add', date: '2025-03-29T10:00', timeZone: 'Europe/Berlin' };
    expect(await h.ok('datetime', { ...base, amount: 'P1D' })).toMatchObject({ local: '2025-03-30T10:00:00+02:00' });
    expect(await h.ok('datetime', { ...base, amount: 'PT24H' })).toMatchObject({ local: '2025-03-30T11:00:00+02:00' });
    expect(await h.ok('datetime', { ...base, amount: { days: -1, hours: 2 } })).toMatchObject({
      local: '2025-03-28T12:00:00+01:00',
    });
  });
  it('clamps month arithmetic to the end of the month', async () => {
    expect(await h.ok('datetime', { operation: 'add', date: '2024-01-31', amount: { months: 1 } })).toMatchObject({
      iso: '2024-02-29T00:00:00.000Z',
    });
    expect(await h.ok('datetime', { operation: 'add', date: '2024-02-29', amount: 'P1Y' })).toMatchObject({
      iso: '2025-02-28T00:00:00.000Z',
    });
  });
  it('formats with tokens, literals and Intl styles', async () => {
    expect(
      await h.ok('datetime', {
        operation: 'format',
        date: '2025-01-31T10:05:09Z',
        timeZone: 'America/New_York',
        pattern: 'dddd D MMMM YYYY [at] h:mm:ss A ZZ',
      }),
    ).toMatchObject({
      formatted: 'Friday 31 January 2025 at 5:05:09 AM -0500',
    });
    expect(
      await h.ok('datetime', { operation: 'format', date: '2025-01-31T10:05:09Z', pattern: 'YYYY-MM-DD HH:mm' }),
    ).toMatchObject({ formatted: '2025-01-31 10:05' });
    expect(
      await h.ok('datetime', { operation: 'format', date: '2025-01-31T10:05:09Z', style: 'short', locale: 'en-GB' }),
    ).toMatchObject({ formatted: '31/01/2025, 10:05' });
  });
  it('measures the time between two dates, in units and calendar days', async () => {
    expect(await h.ok('datetime', { operation: 'diff', date: '2025-01-01', to: '2025-03-01T12:00' })).toMatchObject({
      hours: 1428,
      days: 59.5,
      calendarDays: 59,
      iso: 'P59DT12H',
    });
    expect(await h.ok('datetime', { operation: 'diff', date: 'now', to: '2025-03-29T11:00:00Z' })).toMatchObject({
      minutes: -60,
      iso: '-PT1H',
    });
  });
});

describe('cron_next', () => {
  it('refuses invalid expressions, schedules that never fire, and unknown zones', async () => {
    await h.fails('cron_next', { expression: 'every day' }, 'INVALID_ARGUMENT');
    await h.fails('cron_next', { expression: '61 * * * *' }, 'INVALID_ARGUMENT');
    await h.fails('cron_next', { expression: '0 0 30 2 *' }, 'INVALID_ARGUMENT');
    await h.fails('cron_next', { expression: '* * * * *', timeZone: 'Nowhere/City' }, 'INVALID_ARGUMENT');
    await h.fails('cron_next', { expression: '* * * * *', count: 0 }, 'INVALID_ARGUMENT');
  });
  it('lists the next fire times after the injected now, in the zone', async () => {
    const r = await h.ok<{ times: Array<{ local: string; utc: string }> }>('cron_next', {
      expression: '0 9 * * MON-FRI',
      timeZone: 'Europe/Berlin',
      count: 2,
    });
    expect(r.times).toEqual([
      { local: '2025-03-31T09:00:00+02:00', utc: '2025-03-31T07:00:00.000Z' },
      { local: '2025-04-01T09:00:00+02:00', utc: '2025-04-01T07:00:00.000Z' },
    ]);
  });
  it('starts from a given time and accepts macros and seconds fields', async () => {
    const daily = await h.ok<{ times: Array<{ utc: string }> }>('cron_next', {
      expression: '@daily',
      from: '2025-01-01T12:00:00Z',
      count: 1,
    });
    expect(daily.times[0]?.utc).toBe('2025-01-02T00:00:00.000Z');
    const secs = await h.ok<{ times: Array<{ utc: string }> }>('cron_next', {
      expression: '*/30 * * * * *',
      from: '2025-01-01T00:00:00Z',
      count: 2,
    });
    expect(secs.times.map((t) => t.utc)).toEqual(['2025-01-01T00:00:30.000Z', '2025-01-01T00:01:00.000Z']);
  });
});
