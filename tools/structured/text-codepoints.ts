/**
 * text_codepoints: the Unicode code points of a text, each with its general category and UTF-8
 * bytes, and counts of the characters a reader cannot see: invisible ones (zero-width spaces,
 * joiners, byte-order marks, soft hyphens), bidirectional controls (which reorder how code reads,
 * as in "Trojan Source"), control characters and spaces other than U+0020. A model reaches for it
 * when two strings that look equal compare unequal, or a pasted value behaves oddly.
 */
import { z } from 'zod';
import { jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import { structuredDeclaration } from './common';

export const MAX_TEXT_CHARS = 100_000;
const MAX_LISTED = 2_000;

/** The two-letter Unicode general categories. */
const CATEGORIES = 'Lu Ll Lt Lm Lo Mn Mc Me Nd Nl No Pc Pd Ps Pe Pi Pf Po Sm Sc Sk So Zs Zl Zp Cc Cf Cs Co Cn'.split(
  ' ',
);
const CATEGORY_PATTERNS = CATEGORIES.map((name) => ({ name, pattern: new RegExp(`^\\p{gc=${name}}$`, 'u') }));

/** What makes a character worth a look, in the order flags are listed. */
const FLAGS = {
  invisible: /^\p{Default_Ignorable_Code_Point}$/u,
  bidiControl: /^\p{Bidi_Control}$/u,
  control: /^(?![\t\n\r])\p{Cc}$/u,
  unusualSpace: /^(?![ \t\n\r])\p{White_Space}$/u,
  privateUse: /^\p{Co}$/u,
  unassigned: /^\p{Cn}$/u,
  loneSurrogate: /^\p{Cs}$/u,
} as const;
type Flag = keyof typeof FLAGS;
const FLAG_NAMES = Object.keys(FLAGS) as Flag[];

/** Characters shown as themselves; the others are listed by code point only, since printing them shows nothing. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function flagsOf(char: string): Flag[] {
  return FLAG_NAMES.filter((flag) => FLAGS[flag].test(char));
}

function categoryOf(char: string): string {
  return CATEGORY_PATTERNS.find((c) => c.pattern.test(char))?.name ?? 'Cn';
}

function describeChar(char: string, offset: number, flags: Flag[]) {
  const codePoint = char.codePointAt(0) ?? 0;
  return {
    offset,
    codePoint: `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`,
    ...(PRINTABLE.test(char) ? { char } : {}),
    category: categoryOf(char),
    utf8: Buffer.from(char, 'utf8')
      .toString('hex')
      .toUpperCase()
      .replace(/(..)(?!$)/g, '$1 '),
    flags,
  };
}

export const textCodepoints = defineTool({
  id: 'text_codepoints',
  title: 'Inspect code points',
  description:
    'Lists the code points of a text and counts the invisible ones: for strings that look equal but are not.',
  input: z.object({
    text: z.string().max(MAX_TEXT_CHARS),
    show: z.enum(['all', 'unusual']).default('all'),
    limit: z.number().int().min(1).max(MAX_LISTED).default(200),
  }),
  ...structuredDeclaration,
  run: (args) => {
    const counts = Object.fromEntries(FLAG_NAMES.map((flag) => [flag, 0])) as Record<Flag, number>;
    const characters: Array<ReturnType<typeof describeChar>> = [];
    let codePoints = 0;
    let nonAscii = 0;
    let matching = 0;
    let offset = 0;
    for (const char of args.text) {
      codePoints++;
      if (char.length > 1 || char.charCodeAt(0) > 0x7f) nonAscii++;
      const flags = flagsOf(char);
      for (const flag of flags) counts[flag]++;
      if (args.show === 'all' || flags.length > 0) {
        matching++;
        if (characters.length < args.limit) characters.push(describeChar(char, offset, flags));
      }
      offset += char.length;
    }
    return jsonSuccess({
      codePoints,
      utf16Units: args.text.length,
      utf8Bytes: Buffer.byteLength(args.text, 'utf8'),
      nonAscii,
      unusual: counts,
      characters,
      truncated: matching > characters.length,
    });
  },
});
