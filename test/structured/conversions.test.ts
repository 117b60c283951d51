// Rule guarded: base_convert, unit_convert and duration_convert give exact answers for valid input
// (big integers, compound units, ISO 8601 and human durations) and name the bad field otherwise.
import { describe, expect, it } from 'vitest';
import { structuredTools } from '../../tools/structured';
import { harness } from './harness';

const h = harness(structuredTools({ workspaceRoot: process.cwd() }));

describe('base_convert', () => {
  it('refuses digits outside the base, fractions, and bases outside 2–36', async () => {
    const e = await h.fails('base_convert', { value: '129', from: 2, to: 10 }, 'INVALID_ARGUMENT');
    expect(e.message).toMatch(/"2" is not a base-2 digit/);
    await h.fails('base_convert', { value: '1.5', to: 2 }, 'INVALID_ARGUMENT');
    await h.fails('base_convert', { value: '-', to: 2 }, 'INVALID_ARGUMENT');
    await h.fails('base_convert', { value: '10', from: 37, to: 2 }, 'INVALID_ARGUMENT');
    await h.fails('base_convert', { value: '10', to: 1 }, 'INVALID_ARGUMENT');
  });
  it('converts between bases, to several at once', async () => {
    expect(await h.ok('base_convert', { value: 'ff', from: 16, to: [2, 10, 36] })).toEqual({
      decimal: '255',
      results: { '2': '11111111', '10': '255', '36': '73' },
    });
  });
  it('handles signs, prefixes, separators and upper case', async () => {
    expect(await h.ok('base_convert', { value: '-0x1_F', from: 16, to: 2 })).toMatchObject({
      results: { '2': '-11111' },
    });
    expect(await h.ok('base_convert', { value: '255', to: 16, uppercase: true })).toMatchObject({
      results: { '16': 'FF' },
    });
  });
  it('keeps integers far beyond 2^53 exact', async () => {
    const big = '123456789012345678901234567890';
    const r = await h.ok<{ results: Record<string, string> }>('base_convert', { value: big, to: 36 });
    const back = await h.ok<{ results: Record<string, string> }>('base_convert', {
      value: r.results['36'],
      from: 36,
      to: 10,
    });
    expect(back.results['10']).toBe(big);
  });
});

describe('unit_convert', () => {
  it('refuses unknown units and incompatible dimensions', async () => {
    const e = await h.fails('unit_convert', { value: 1, from: 'furlongz', to: 'm' }, 'INVALID_ARGUMENT');
    expect(e.data?.fields).toEqual(['from']);
    const d = await h.fails('unit_convert', { value: 1, from: 'kg', to: 'm' }, 'INVALID_ARGUMENT');
    expect(d.hint).toMatch(/same dimension/);
  });
  it('converts length, temperature, speed and data units', async () => {
    expect(await h.ok('unit_convert', { value: 1, from: 'inch', to: 'cm' })).toMatchObject({ value: 2.54, unit: 'cm' });
    expect(await h.ok('unit_convert', { value: 212, from: 'degF', to: 'degC' })).toMatchObject({ value: 100 });
    expect(await h.ok('unit_convert', { value: 36, from: 'km/h', to: 'm/s' })).toMatchObject({ value: 10 });
    expect(await h.ok('unit_convert', { value: 1, from: 'MiB', to: 'KiB' })).toMatchObject({ value: 1024 });
  });
});

describe('duration_convert', () => {
  it('refuses text that is not a duration and a number without a unit', async () => {
    for (const duration of ['soon', 'P', 'PT', '1 hour 30', '5 parsecs'])
      await h.fails('duration_convert', { duration }, 'INVALID_ARGUMENT');
    const e = await h.fails('duration_convert', { duration: 90 }, 'INVALID_ARGUMENT');
    expect(e.data?.fields).toEqual(['unit']);
  });
  it('reads ISO 8601 durations', async () => {
    expect(await h.ok('duration_convert', { duration: 'P1DT2H30M', to: 'minutes' })).toMatchObject({
      value: 1590,
      hours: 26.5,
      iso: 'P1DT2H30M',
      human: '1 day 2 hours 30 minutes',
      approximate: false,
    });
    expect(await h.ok('duration_convert', { duration: 'PT0.5S' })).toMatchObject({ milliseconds: 500 });
    expect(await h.ok('duration_convert', { duration: '-P2W' })).toMatchObject({ days: -14, iso: '-P14D' });
  });
  it('reads human and clock durations', async () => {
    expect(await h.ok('duration_convert', { duration: '1h 30m' })).toMatchObject({ minutes: 90, iso: 'PT1H30M' });
    expect(await h.ok('duration_convert', { duration: '2 days and 3 hrs' })).toMatchObject({ hours: 51 });
    expect(await h.ok('duration_convert', { duration: '01:30:15' })).toMatchObject({ seconds: 5415 });
  });
  it('converts a number with a unit, and flags months and years as approximate', async () => {
    expect(await h.ok('duration_convert', { duration: 90, unit: 'minutes', to: 'hours' })).toMatchObject({
      value: 1.5,
    });
    expect(await h.ok('duration_convert', { duration: 'P1Y', to: 'days' })).toMatchObject({
      value: 365.2425,
      approximate: true,
    });
  });
});
