/** Rule: the virtual device's command logs keep only their newest entries, and read as plain arrays. */
import { describe, expect, it } from 'vitest';
import { BoundedLog } from '../../tools/devices/virtual/bounded-log';

describe('BoundedLog', () => {
  it('keeps the newest entries once full', () => {
    const log = new BoundedLog<number>(3);
    for (let i = 1; i <= 5; i++) log.push(i);
    expect([...log]).toEqual([3, 4, 5]);
    expect(log.push(6, 7)).toBe(3);
    expect([...log]).toEqual([5, 6, 7]);
  });

  it('gives plain arrays from filter and map', () => {
    const log = new BoundedLog<number>(2);
    log.push(1, 2);
    const filtered = log.filter((n) => n > 1);
    expect(filtered).toEqual([2]);
    expect(filtered).not.toBeInstanceOf(BoundedLog);
    expect(log.map((n) => n * 2)).toEqual([2, 4]);
  });
});
