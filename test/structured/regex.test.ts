// Rule guarded: model-supplied regular expressions can never hang the host: a catastrophic pattern
// runs in a CPU worker that is stopped at the 2 s bound, and the call ends as TIMEOUT naming the
// bound with a rewrite hint; the input and output sizes are bounded; ordinary patterns extract and
// replace as JavaScript does.
import { describe, expect, it } from 'vitest';
import { cpuPool } from '../../tools/common/cpu-pool';
import { regexExtract, regexReplace } from '../../tools/structured/regex-tools';
import { harness } from './harness';

const h = harness([regexExtract, regexReplace]);
const evil = `${'a'.repeat(40)}!`;

/** Threads the pool has let go of that have not stopped yet: started, neither running nor exited. */
function threadsStillStopping(): number {
  const { started, exited, threads } = cpuPool().stats();
  return started - exited - threads;
}

describe('regex_extract and regex_replace refuse', () => {
  it.each([
    ['(a+)+$', evil],
    ['(a|a)*$', evil],
    ['(.*a){25}$', evil],
    ['^(\\w+\\s?)*$', `${'word '.repeat(15)}!`],
  ])('the catastrophic pattern %s by stopping it at its bound, with a rewrite hint', async (pattern, text) => {
    const ids = ['regex_extract', 'regex_replace'];
    const errors = await Promise.all(ids.map((id) => h.fails(id, { pattern, text, replacement: 'x' }, 'TIMEOUT')));
    errors.forEach((e, i) => {
      expect(e.message).toBe(`${ids[i]} ran past its 2 s bound and was stopped; simplify the pattern.`);
      expect(e.hint).toMatch(/nested or overlapping quantifiers/);
      expect(e.data).toMatchObject({ reason: 'cpu-bound', boundMs: 2000, deterministic: true });
    });
    expect(await h.ok('regex_extract', { pattern: '!$', text })).toMatchObject({ count: 1 });
  });

  it('a call its caller cancels, by stopping the computation', async () => {
    const controller = new AbortController();
    const call = h.call('regex_extract', { pattern: '(a+)+$', text: evil }, controller.signal);
    await expect.poll(() => cpuPool().stats().busy, { timeout: 20_000, interval: 10 }).toBe(1);
    // Threads that earlier tests stopped count as exited once they have stopped, which can be later.
    await expect.poll(() => threadsStillStopping(), { timeout: 20_000, interval: 10 }).toBe(0);
    const exited = cpuPool().stats().exited;
    controller.abort();
    const r = await call;
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'EXECUTION_FAILED', data: { cancelled: true } });
    await expect.poll(() => cpuPool().stats().exited, { timeout: 20_000, interval: 10 }).toBe(exited + 1);
  });

  it('a call beyond the waiting bound of its tool, as busy, while other tools still run', async () => {
    const pool = cpuPool();
    const controller = new AbortController();
    const flood = Array.from({ length: pool.size + 32 }, (_, i) =>
      h.call('regex_extract', { pattern: '(a+)+$', text: `${'a'.repeat(40 + i)}!` }, controller.signal),
    );
    await expect
      .poll(() => pool.stats(), { timeout: 20_000, interval: 10 })
      .toMatchObject({ busy: pool.size, waiting: 32 });
    const refused = await h.fails('regex_extract', { pattern: 'a', text: 'a' }, 'RATE_LIMITED');
    expect(refused.message).toBe('The host is busy: 32 regex_extract calls are already waiting for a CPU worker.');
    // Another tool takes the first thread that frees, ahead of the 32 waiting regex_extract calls.
    expect(await h.ok('regex_replace', { pattern: 'a', text: 'a', replacement: 'b' })).toMatchObject({ text: 'b' });
    expect(pool.stats().waiting).toBeGreaterThanOrEqual(32 - pool.size);
    controller.abort();
    const ended = (await Promise.all(flood)).map((r) =>
      r.ok ? 'ok' : r.error.data?.cancelled === true ? 'cancelled' : r.error.code,
    );
    expect(new Set(ended)).toEqual(new Set(['TIMEOUT', 'cancelled']));
    expect(ended.filter((e) => e === 'cancelled').length).toBeGreaterThanOrEqual(32);
  });

  it('a syntax error, naming the field', async () => {
    const e = await h.fails('regex_extract', { pattern: '(unclosed', text: 'x' }, 'INVALID_ARGUMENT');
    expect(e.message).toMatch(/Invalid regular expression in "pattern"/);
  });

  it('unknown or repeated flags', async () => {
    await h.fails('regex_extract', { pattern: 'a', flags: 'x', text: 'a' }, 'INVALID_ARGUMENT');
    await h.fails('regex_extract', { pattern: 'a', flags: 'gg', text: 'a' }, 'INVALID_ARGUMENT');
  });

  it('inputs above the size bound', async () => {
    await h.fails('regex_extract', { pattern: 'a', text: 'a'.repeat(1_000_001) }, 'INVALID_ARGUMENT');
    await h.fails('regex_extract', { pattern: 'a'.repeat(2001), text: 'a' }, 'INVALID_ARGUMENT');
  });

  it('a replacement whose output would explode ($` on every match)', async () => {
    const e = await h.fails(
      'regex_replace',
      { pattern: 'a', text: 'a'.repeat(100_000), replacement: '$`' },
      'INVALID_ARGUMENT',
    );
    expect(e.message).toMatch(/would exceed/);
  });

  it('missing arguments', async () => {
    await h.fails('regex_extract', { text: 'x' }, 'INVALID_ARGUMENT');
    await h.fails('regex_replace', { pattern: 'x', text: 'x' }, 'INVALID_ARGUMENT');
  });
});

describe('regex_extract', () => {
  it('returns every match with index, numbered and named groups', async () => {
    const r = await h.ok<{ count: number; matches: unknown[] }>('regex_extract', {
      pattern: '(\\d+)-(?<b>\\d+)',
      text: 'a 1-2 b 33-44',
    });
    expect(r.count).toBe(2);
    expect(r.matches[1]).toEqual({ match: '33-44', index: 8, groups: ['33', '44'], named: { b: '44' } });
  });
  it('returns one group per match when asked, by number or name', async () => {
    expect(await h.ok('regex_extract', { pattern: '(\\w+)@(?<host>\\w+)', text: 'x@a y@b', group: 1 })).toMatchObject({
      values: ['x', 'y'],
    });
    expect(
      await h.ok('regex_extract', { pattern: '(\\w+)@(?<host>\\w+)', text: 'x@a y@b', group: 'host' }),
    ).toMatchObject({ values: ['a', 'b'] });
  });
  it('honours flags and stops at maxMatches', async () => {
    expect(await h.ok('regex_extract', { pattern: 'A', flags: 'i', text: 'aAa', maxMatches: 2 })).toMatchObject({
      count: 2,
      truncated: true,
    });
  });
  it('handles empty matches without looping', async () => {
    expect(await h.ok('regex_extract', { pattern: 'x*', text: 'ab' })).toMatchObject({ count: 3 });
  });
});

describe('regex_replace', () => {
  it('expands $1, $<name>, $& and $$ like String.prototype.replace', async () => {
    const text = 'mail joe@example today';
    const pattern = '(\\w+)@(?<host>\\w+)';
    const replacement = '$<host> at $1 [$&] $$ $9';
    const r = await h.ok<{ text: string; replacements: number }>('regex_replace', { pattern, text, replacement });
    expect(r.text).toBe(text.replace(new RegExp(pattern, 'g'), replacement));
    expect(r.replacements).toBe(1);
  });
  it("expands $` and $' like String.prototype.replace", async () => {
    const r = await h.ok<{ text: string }>('regex_replace', { pattern: 'b', text: 'abc', replacement: "[$`|$']" });
    expect(r.text).toBe('abc'.replace(/b/g, "[$`|$']"));
  });
  it('replaces only the first match when replaceAll is false', async () => {
    expect(
      await h.ok('regex_replace', { pattern: 'o', text: 'foo', replacement: '0', replaceAll: false }),
    ).toMatchObject({ text: 'f0o', replacements: 1 });
  });
});
