/**
 * Rule: an error message is written down only once cleaned — every run of 8 or more characters it
 * shares with any argument value (strings anywhere in the arguments, numbers as they print, the
 * parts of a URL, encoded or decoded, in any case) becomes a placeholder naming the field, the
 * text is at most 1 KB and holds no control characters. The error's own words stay.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_TEXT_LIMIT, cleanErrorText } from '../../tools/core/trace';
import { findLeak } from '../support/argument-runs';

const leaked = (text: string, values: readonly string[]) => findLeak(text, values)?.run;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe('cleanErrorText', () => {
  it('replaces a URL by a placeholder naming its field and keeps the words of the error', () => {
    const url = 'http://127.0.0.1:4100/slow/hunter2SECRET-7f3a';
    expect(cleanErrorText(`No complete response from ${url} within 200 ms.`, { url, timeoutMs: 200 })).toBe(
      'No complete response from ‹url› within 200 ms.',
    );
  });

  it('finds the parts of a URL as a tool or a browser prints them', () => {
    const url = 'https://User:pa55word@Example-Host.com:8443/a path/ünïcode?token=s3cr3t-value&x=1';
    const args = { url };
    const parsed = new URL(url);
    for (const shown of [
      parsed.href,
      parsed.host,
      parsed.pathname,
      decodeURIComponent(parsed.pathname),
      's3cr3t-value',
      `${parsed.origin}${parsed.pathname}`,
      url.toUpperCase(),
    ]) {
      const cleaned = cleanErrorText(`failed at ${shown} (net::ERR_FAILED)`, args);
      expect(leaked(cleaned, [url, parsed.href, parsed.host, 's3cr3t-value', 'ünïcode'])).toBeUndefined();
      expect(cleaned).toContain('‹url›');
      expect(cleaned).toContain('net::ERR_FAILED');
    }
  });

  it('finds text percent-encoded in the message although the argument was plain', () => {
    const query = 'weather in Zürich tomorrow';
    const message = `Search provider failed for http://search.local/?q=${encodeURIComponent(query)}&n=5`;
    const cleaned = cleanErrorText(message, { query });
    expect(cleaned).toBe('Search provider failed for http://search.local/?q=‹query›&n=5');
  });

  it('finds text that a URL parser encoded its own way, unlike any encoder the cleaner knows', () => {
    const path = 'reports|2031^draft copy[1]';
    const message = `GET ${new URL(`http://files.local/${path}`).href} failed`;
    expect(message).toContain('reports|2031%5Edraft%20copy[1]');
    expect(cleanErrorText(message, { path })).toBe('GET http://files.local/‹path› failed');
  });

  it('cleans nested strings, numbers and the keys a model chose', () => {
    const args = {
      steps: [{ tool: 'read_file', args: { path: 'notes/diary-2031.txt' } }],
      headers: { 'X-Private-Marker': 'abc' },
      limit: 123456789,
      surprise: 'undeclared-secret',
    };
    const fields = new Set(['steps', 'headers', 'limit']);
    const message =
      "step 1: ENOENT 'notes/diary-2031.txt'; header X-Private-Marker refused; limit 123456789; undeclared-secret";
    const cleaned = cleanErrorText(message, args, { fields });
    expect(cleaned).toBe("step 1: ENOENT '‹steps›'; header ‹headers› refused; limit ‹limit›; ‹arg›");
  });

  it('names an undeclared field only as arg, since a model may put a secret in a key', () => {
    const cleaned = cleanErrorText(
      'unknown option hunter2SECRET-key',
      { 'hunter2SECRET-key': 1 },
      { fields: new Set() },
    );
    expect(cleaned).toBe('unknown option ‹arg›');
  });

  it('leaves runs shorter than 8 characters and text the arguments do not hold', () => {
    expect(cleanErrorText("File 'a.txt' not found.", { path: 'a.txt' })).toBe("File 'a.txt' not found.");
  });

  it('bounds the text to 1 KB and strips control characters', () => {
    const cleaned = cleanErrorText(`line one\nline\u0007two\u202e${'x'.repeat(5000)}`, {});
    expect(cleaned.length).toBeLessThanOrEqual(ERROR_TEXT_LIMIT);
    expect(cleaned.startsWith('line one line two ')).toBe(true);
    expect(cleaned.endsWith('…')).toBe(true);
    expect(cleaned).not.toMatch(CONTROL);
    expect(cleaned).not.toContain('\u202e');
  });

  it('folds the case of astral letters too (an Adlam capital repeated in lower case)', () => {
    const cleaned = cleanErrorText('got !𐀀𞤢𐀀𞤢 back', { a: '!𐀀𞤀𐀀𞤀' }, { fields: new Set(['a']) });
    expect(cleaned).toBe('got ‹a› back');
  });

  it('does not let a control character split a run so that it survives once stripped', () => {
    const cleaned = cleanErrorText('got hunter2\u0000SECRET back', { token: 'hunter2 SECRET' });
    expect(cleaned).toBe('got ‹token› back');
  });

  const value = fc.oneof(
    fc.string({ unit: 'grapheme', minLength: 8, maxLength: 40 }),
    fc.string({ unit: 'grapheme-ascii', minLength: 8, maxLength: 40 }),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    // An alphabet of the cleaner's own marks and of encodings, to try to make a placeholder complete a run.
    fc.string({ unit: fc.constantFrom('‹', '›', '…', 'a', 'r', 'g', '%', '2', '0', ' ', 'A'), minLength: 8 }),
  );

  const shown = (v: string) =>
    fc.constantFrom(
      v,
      v.toUpperCase(),
      v.toLowerCase(),
      JSON.stringify(v),
      (() => {
        try {
          return encodeURIComponent(v);
        } catch {
          return v;
        }
      })(),
      URL.canParse(v) ? new URL(v).href : v,
      `${v.slice(0, 4)}\u0001${v.slice(4)}`,
      v.replace(/ /g, '  '),
    );

  it('leaves no 8-character window of any argument value, whatever the message (property)', () => {
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 4 }),
        fc.array(fc.string({ maxLength: 30 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (values, fillers, seed) => {
          const args = { a: values[0], nested: { list: values.slice(1) } };
          const parts: string[] = [];
          values.forEach((v, i) => {
            parts.push(fillers[i % fillers.length] ?? '');
            parts.push(fc.sample(shown(v), { numRuns: 1, seed: seed + i })[0] ?? v);
          });
          const message = parts.join(' ');
          const cleaned = cleanErrorText(message, args, { fields: new Set(['a', 'nested']) });
          expect(leaked(cleaned, values)).toBeUndefined();
          expect(cleaned.length).toBeLessThanOrEqual(ERROR_TEXT_LIMIT);
          expect(cleaned).not.toMatch(CONTROL);
        },
      ),
      { numRuns: 400 },
    );
  });
});
