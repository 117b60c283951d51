// Rule guarded: text_transform applies exactly the named operation, round-trips its encodings, and
// reports undecodable input as INVALID_ARGUMENT instead of returning replacement characters.
import { describe, expect, it } from 'vitest';
import { utilityTools } from '../../tools/utility';
import { harness } from '../structured/harness';

const h = harness(utilityTools());
const run = async (operation: string, text: string) =>
  (await h.ok<{ result: string }>('text_transform', { operation, text })).result;

describe('text_transform refuses', () => {
  it('unknown operations and missing text', async () => {
    await h.fails('text_transform', { operation: 'rot13', text: 'x' }, 'INVALID_ARGUMENT');
    await h.fails('text_transform', { operation: 'upper' }, 'INVALID_ARGUMENT');
  });
  it('invalid base64, hex and percent-encoding, and bytes that are not UTF-8', async () => {
    await h.fails('text_transform', { operation: 'base64Decode', text: 'not*base64' }, 'INVALID_ARGUMENT');
    await h.fails('text_transform', { operation: 'base64Decode', text: '/w==' }, 'INVALID_ARGUMENT');
    await h.fails('text_transform', { operation: 'hexDecode', text: 'abc' }, 'INVALID_ARGUMENT');
    await h.fails('text_transform', { operation: 'urlDecode', text: '%E0%A4%A' }, 'INVALID_ARGUMENT');
  });
});

describe('text_transform', () => {
  it.each([
    ['upper', 'Hello', 'HELLO'],
    ['lower', 'HeLLo', 'hello'],
    ['title', "the cat's hat", "The Cat's Hat"],
    ['sentence', 'HELLO there. how ARE you?', 'Hello there. How are you?'],
    ['camel', 'XMLHttpRequest handler', 'xmlHttpRequestHandler'],
    ['pascal', 'user_id value', 'UserIdValue'],
    ['snake', 'userIdValue', 'user_id_value'],
    ['kebab', 'User ID Value', 'user-id-value'],
    ['constant', 'max retries', 'MAX_RETRIES'],
    ['trim', '  x  ', 'x'],
    ['collapseWhitespace', ' a \n\t b ', 'a b'],
    ['slugify', 'Héllo, Wörld! 2025', 'hello-world-2025'],
    ['removeDiacritics', 'Crème brûlée', 'Creme brulee'],
    ['reverse', 'ab👍🏽c', 'c👍🏽ba'],
    ['sortLines', 'b\na\nc', 'a\nb\nc'],
    ['uniqueLines', 'a\nb\na', 'a\nb'],
    ['reverseLines', '1\n2\n3', '3\n2\n1'],
    ['htmlEncode', '<a href="x">&</a>', '&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;'],
    ['htmlDecode', '&lt;p&gt;&amp;&#65;&#x42;&nbsp;&unknown;', '<p>&AB\u00a0&unknown;'],
    ['urlEncode', 'a b&c/é', 'a%20b%26c%2F%C3%A9'],
    ['hexEncode', 'Hi', '4869'],
  ])('%s', async (operation, text, expected) => {
    expect(await run(operation, text)).toBe(expected);
  });

  it('round-trips base64, base64url, url and hex encodings', async () => {
    const text = 'Grüße 👋 <&> ?x=1';
    for (const [enc, dec] of [
      ['base64Encode', 'base64Decode'],
      ['base64UrlEncode', 'base64UrlDecode'],
      ['urlEncode', 'urlDecode'],
      ['hexEncode', 'hexDecode'],
    ]) {
      expect(await run(dec as string, await run(enc as string, text)), enc).toBe(text);
    }
  });

  it('counts characters, graphemes, words, lines and bytes', async () => {
    expect(await h.ok('text_transform', { operation: 'count', text: 'héllo wörld\nok 👍🏽' })).toMatchObject({
      counts: { characters: 17, graphemes: 16, words: 3, lines: 2, bytes: 25 },
    });
  });
});
