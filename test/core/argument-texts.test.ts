/**
 * Rule: the argument texts a message is cleaned against are every form a tool may print an
 * argument in, and collecting them costs at most MAX_CHECK_COST whatever the arguments. A form is
 * skipped only where it cannot differ from the text; arguments too large to check within the bound
 * give UNCHECKED, and then nothing of the message is written down (its slug is its code's).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolCallError } from '../../tools/core';
import { createPipeline } from '../../tools/core/pipeline';
import {
  MAX_CHECK_COST,
  UNCHECKED,
  argumentTexts,
  cleanErrorText,
  errorSlug,
  formEncoded,
  normalizeSpacing,
} from '../../tools/core/trace';
import { fixtureTool, registryOf } from '../pipeline/fixtures';

/** Every form of a text, each worked out whether or not it can differ: the rule the collector must keep. */
function everyForm(text: string): Set<string> {
  const forms = new Set<string>([text, text.normalize('NFC'), text.normalize('NFKC')]);
  forms.add(JSON.stringify(text).slice(1, -1));
  for (const cased of [text.toLowerCase(), text.toUpperCase()]) if (cased.length !== text.length) forms.add(cased);
  const tries = [
    () => encodeURI(text),
    () => encodeURIComponent(text),
    () => new URLSearchParams([['', text]]).toString().slice(1),
    () => decodeURIComponent(text),
    () => decodeURIComponent(text.replace(/\+/g, ' ')),
  ];
  for (const form of tries) {
    try {
      forms.add(form());
    } catch {
      // that form does not exist for this text
    }
  }
  if (text.length <= 8192 && URL.canParse(text.trim())) {
    const url = new URL(text.trim());
    const bare = new URL(url.href);
    bare.username = '';
    bare.password = '';
    const parts = [url.href, url.origin, url.host, url.hostname, url.pathname, url.search, url.hash];
    parts.push(url.username, url.password, bare.href, `${bare.origin}${bare.pathname}`, ...url.pathname.split('/'));
    for (const [name, value] of url.searchParams) parts.push(name, value);
    for (const part of parts) {
      forms.add(part);
      try {
        forms.add(decodeURIComponent(part));
      } catch {
        // only its encoded form can appear
      }
    }
  }
  const out = new Set<string>();
  for (const form of forms) for (const f of [form, normalizeSpacing(form)]) if (f.length >= 8) out.add(f);
  return out;
}

const collected = (text: string) => new Set(argumentTexts({ text }).map((t) => t.text));

const mixed = fc.oneof(
  fc.string({ unit: 'binary', minLength: 8, maxLength: 40 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 8, maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom('a', 'Z', '%', '2', '0', '+', ' ', ':', '/', '"', '\\', '\t', '~', 'é', 'ß', '\ud800'),
    minLength: 8,
  }),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
);

describe('argumentTexts', () => {
  it('collects exactly the forms worked out without skipping any (property)', () => {
    fc.assert(
      fc.property(mixed, (text) => {
        expect(collected(text)).toEqual(everyForm(text));
      }),
      { numRuns: 500 },
    );
  });

  it('collects the forms of texts a tool prints differently: spaces, escapes, percent signs, a URL', () => {
    for (const text of ['two words here', 'say "hunter2" now', '100%25 sure of it', 'https://a.example/p?q=1 2']) {
      expect(collected(text)).toEqual(everyForm(text));
    }
  });

  it('gives UNCHECKED for arguments past the bound, however they are spread', () => {
    const big = 'x'.repeat(MAX_CHECK_COST + 1);
    expect(argumentTexts({ a: big })).toEqual([UNCHECKED]);
    const many = Array.from({ length: 200 }, (_, i) => `${i}`.padEnd(20_000, 'abcdefghij'));
    expect(argumentTexts({ candidates: many })).toEqual([UNCHECKED]);
    expect(argumentTexts({ list: Array.from({ length: MAX_CHECK_COST + 1 }, () => 1) })).toEqual([UNCHECKED]);
    // Forms of non-ASCII text may be many times longer than it: such text is bounded sooner.
    expect(argumentTexts({ a: 'é'.repeat(MAX_CHECK_COST / 8) })).toEqual([UNCHECKED]);
  });

  it('still checks arguments of a hundred kilobytes in every form', () => {
    const secret = 'hunter2SECRET-value';
    const text = `${'filler words '.repeat(8_000)}${secret}`;
    expect(argumentTexts({ text })).not.toEqual([UNCHECKED]);
    expect(cleanErrorText(`could not store [${encodeURIComponent(secret)}]: disk full`, { text })).toBe(
      'could not store [‹text›]: disk full',
    );
  });
});

describe('a message checked against arguments too large to check', () => {
  const args = { a: 'hunter2SECRET-'.repeat(MAX_CHECK_COST / 10) };

  it('is not written down at all, unless it is too short to hold a run', () => {
    expect(cleanErrorText('string_distance ran past its 5 s bound and was stopped.', args)).toBe('');
    expect(cleanErrorText('no room', args)).toBe('no room');
  });

  it("gets its code's slug, never a slug of its words or one the tool declared", () => {
    expect(errorSlug({ code: 'EXECUTION_FAILED', message: 'disk quota exceeded' }, args)).toBe('execution-failed');
    expect(errorSlug({ code: 'TIMEOUT', message: 'x', data: { slug: 'hunter2secret' } }, args)).toBe('timeout');
  });

  it("leaves the failed call's span and breaker without its text, with the code's slug", async () => {
    const p = createPipeline(
      registryOf(
        fixtureTool('echoing', ({ text }) => {
          throw new ToolCallError('EXECUTION_FAILED', `could not open '${String(text).slice(0, 40)}'`);
        }),
      ),
      { approval: false, environment: false },
    );
    const result = await p.executor.execute({ toolId: 'echoing', args: { text: args.a } });
    expect(result.ok).toBe(false);
    expect(p.trace.spans()[0]).toMatchObject({
      errorCode: 'EXECUTION_FAILED',
      errorText: '',
      errorSlug: 'execution-failed',
    });
    expect(p.breakers?.state('echoing').lastError).toMatchObject({ slug: 'execution-failed' });
  });
});

describe('formEncoded', () => {
  it('prints a text as URLSearchParams does, lone surrogates included (property)', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({
        unit: fc.constantFrom(' ', '!', "'", '(', ')', '~', '*', '-', '.', '_', '+', '%', '\ud800', '\udc00', 'é'),
      }),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(formEncoded(t)).toBe(new URLSearchParams([['', t]]).toString().slice(1));
      }),
      { numRuns: 1000 },
    );
  });
});
