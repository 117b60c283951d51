/**
 * Rule guarded: the session's bookkeeping is bounded and exact — rings drop the oldest entries,
 * network filters match what the model asks for, the fps meter counts a sliding window on an
 * injected clock, JPEG frame sizes are read from the header, and date values are checked against
 * the format the browser requires.
 */
import { describe, expect, it } from 'vitest';
import { FpsMeter } from '../../tools/browser/fps-meter';
import { type NetworkEntry, matchesStatus } from '../../tools/browser/network-log';
import { RingBuffer } from '../../tools/browser/ring-buffer';
import { jpegSize } from '../../tools/browser/screencast';
import { checkDateValue } from '../../tools/browser/tools/date-input';
import { isToolCallError } from '../../tools/core/result';

describe('RingBuffer', () => {
  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new RingBuffer(0)).toThrow(RangeError);
  });

  it('keeps only the newest items and counts the evicted ones', () => {
    const ring = new RingBuffer<number>(3);
    for (let i = 1; i <= 5; i++) ring.push(i);
    expect(ring.toArray()).toEqual([3, 4, 5]);
    expect(ring.last(2)).toEqual([4, 5]);
    expect(ring.evicted).toBe(2);
  });
});

describe('matchesStatus', () => {
  const entry = (over: Partial<NetworkEntry>): NetworkEntry => ({
    id: 1,
    method: 'GET',
    url: 'http://x/',
    resourceType: 'fetch',
    state: 'done',
    startedAt: 0,
    ...over,
  });

  it('does not count a request without a response in any status class', () => {
    expect(matchesStatus(entry({ state: 'failed', failure: 'net::ERR_FAILED' }), '4xx')).toBe(false);
    expect(matchesStatus(entry({ state: 'failed' }), 'failed')).toBe(true);
  });

  it('matches an exact status, a status class and pending requests', () => {
    expect(matchesStatus(entry({ status: 404 }), 404)).toBe(true);
    expect(matchesStatus(entry({ status: 404 }), '4xx')).toBe(true);
    expect(matchesStatus(entry({ status: 200 }), '4xx')).toBe(false);
    expect(matchesStatus(entry({ state: 'pending' }), 'pending')).toBe(true);
  });
});

describe('FpsMeter', () => {
  it('reports zero before any frame and forgets frames older than the window', () => {
    let now = 0;
    const meter = new FpsMeter(1000, () => now);
    expect(meter.fps()).toBe(0);
    for (let i = 0; i < 20; i++) meter.tick((now = i * 50));
    expect(meter.fps()).toBe(20);
    now = 2500;
    expect(meter.fps()).toBe(0);
  });
});

describe('jpegSize', () => {
  it('returns undefined for bytes that are not a JPEG', () => {
    expect(jpegSize(Buffer.from('not a jpeg at all'))).toBeUndefined();
  });

  it('reads width and height from the start-of-frame segment', () => {
    // SOI, an APP0 segment of length 16, then SOF0 with height 480 and width 640.
    const app0 = Buffer.concat([Buffer.from([0xff, 0xe0, 0x00, 0x10]), Buffer.alloc(14)]);
    const sof0 = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03]);
    expect(jpegSize(Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof0, Buffer.alloc(16)]))).toEqual({
      width: 640,
      height: 480,
    });
  });
});

describe('checkDateValue', () => {
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
      return 'ok';
    } catch (e) {
      return isToolCallError(e) ? `${e.toolErrorCode}: ${e.message}` : 'threw';
    }
  };

  it('refuses a day that does not exist and names the expected format', () => {
    expect(codeOf(() => checkDateValue('date', '2023-02-29'))).toMatch(/^INVALID_ARGUMENT: .*YYYY-MM-DD/);
  });

  it('refuses a US-style date for a native date field', () => {
    expect(codeOf(() => checkDateValue('date', '03/15/2024'))).toMatch(/YYYY-MM-DD, e\.g\. 2024-03-15/);
  });

  it('refuses 24:00 for a time field and a week 54', () => {
    expect(codeOf(() => checkDateValue('time', '24:00'))).toMatch(/HH:MM/);
    expect(codeOf(() => checkDateValue('week', '2024-W54'))).toMatch(/YYYY-Www/);
  });

  it('accepts each native format and a space for the T of datetime-local', () => {
    expect(checkDateValue('date', '2024-02-29')).toBe('2024-02-29');
    expect(checkDateValue('time', '07:05:09')).toBe('07:05:09');
    expect(checkDateValue('datetime-local', '2024-03-15 14:30')).toBe('2024-03-15T14:30');
    expect(checkDateValue('month', '2024-12')).toBe('2024-12');
    expect(checkDateValue('week', '2024-W01')).toBe('2024-W01');
  });
});
