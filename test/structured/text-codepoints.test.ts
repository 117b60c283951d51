/**
 * Rule guarded: text_codepoints lists a text's code points with their category and UTF-8 bytes and
 * counts what a reader cannot see (invisible, bidirectional-control, control characters, unusual
 * spaces) over the whole text; bad arguments come back as INVALID_ARGUMENT naming the field; and
 * the tool lives behind the pipeline like any other, so its rate limit refuses a runaway loop.
 * Every call goes through a real MCP client to a running host.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TEXT_CHARS } from '../../tools/structured/text-codepoints';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';

let t: TestHost;
let client: Client;
beforeAll(async () => {
  // A quota of 3 a minute, so the limit is reached by the refusal test and by nothing else here.
  t = await startTestHost({ rateLimitPerMinute: { text_codepoints: 3 } });
  client = await connectClient(t.host);
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

const call = (args: Record<string, unknown>) => client.callTool({ name: 'text_codepoints', arguments: args });

describe('text_codepoints', () => {
  it('finds the zero-width space and the right-to-left override hidden in a text that looks plain', async () => {
    const r = await call({ text: 'pay\u200Bpal \u202Eexe.txt\u00A0é\u0007', show: 'unusual' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({
      codePoints: 19,
      utf16Units: 19,
      utf8Bytes: 25,
      nonAscii: 4,
      unusual: {
        invisible: 2,
        bidiControl: 1,
        control: 1,
        unusualSpace: 1,
        privateUse: 0,
        unassigned: 0,
        loneSurrogate: 0,
      },
      characters: [
        { offset: 3, codePoint: 'U+200B', category: 'Cf', utf8: 'E2 80 8B', flags: ['invisible'] },
        {
          offset: 8,
          codePoint: 'U+202E',
          category: 'Cf',
          utf8: 'E2 80 AE',
          flags: ['invisible', 'bidiControl'],
        },
        { offset: 16, codePoint: 'U+00A0', category: 'Zs', utf8: 'C2 A0', flags: ['unusualSpace'] },
        { offset: 18, codePoint: 'U+0007', category: 'Cc', utf8: '07', flags: ['control'] },
      ],
      truncated: false,
    });
  });

  it('lists every code point up to the limit, astral ones by UTF-16 offset, and counts the whole text', async () => {
    const r = await call({ text: 'a😀b', limit: 2 });
    expect(r.structuredContent).toMatchObject({
      codePoints: 3,
      utf16Units: 4,
      utf8Bytes: 6,
      characters: [
        { offset: 0, codePoint: 'U+0061', char: 'a', category: 'Ll', utf8: '61', flags: [] },
        { offset: 1, codePoint: 'U+1F600', char: '😀', category: 'So', utf8: 'F0 9F 98 80', flags: [] },
      ],
      truncated: true,
    });
  });

  it('answers bad arguments with INVALID_ARGUMENT naming the field, and a text over the limit likewise', async () => {
    const wrongType = await call({ text: 42 });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.structuredContent).toMatchObject({
      code: 'INVALID_ARGUMENT',
      hint: 'Fix the arguments and retry.',
      data: { fields: ['text'] },
    });
    const tooLong = await call({ text: 'x'.repeat(MAX_TEXT_CHARS + 1) });
    expect(tooLong.structuredContent).toMatchObject({ code: 'INVALID_ARGUMENT', data: { fields: ['text'] } });
    expect(textOf(tooLong)).toContain('argument "text"');
    const badLimit = await call({ text: 'abc', limit: 0 });
    expect(badLimit.structuredContent).toMatchObject({ code: 'INVALID_ARGUMENT', data: { fields: ['limit'] } });
  });

  it('is refused by the rate limiter once its quota is spent, with the hint to wait', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await call({ text: `call ${i}` }));
    const refused = answers.filter((r) => r.isError);
    expect(answers.at(-1)?.isError).toBe(true);
    for (const r of refused) {
      expect(r.structuredContent).toMatchObject({ code: 'RATE_LIMITED' });
      expect(textOf(r)).toContain('Hint: Too many calls to this tool');
    }
  });
});
