/** The pure string operations behind text_transform, one function per operation name. */
import { ToolCallError } from '../core/result';

export const TEXT_OPERATIONS = [
  'upper',
  'lower',
  'title',
  'sentence',
  'camel',
  'pascal',
  'snake',
  'kebab',
  'constant',
  'trim',
  'trimStart',
  'trimEnd',
  'collapseWhitespace',
  'slugify',
  'removeDiacritics',
  'reverse',
  'sortLines',
  'uniqueLines',
  'reverseLines',
  'base64Encode',
  'base64Decode',
  'base64UrlEncode',
  'base64UrlDecode',
  'urlEncode',
  'urlDecode',
  'htmlEncode',
  'htmlDecode',
  'hexEncode',
  'hexDecode',
  'count',
] as const;
export type TextOperation = (typeof TEXT_OPERATIONS)[number];

function invalidText(message: string, hint: string): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', message, { hint, data: { fields: ['text'] } });
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const wordSegmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/** Words for case conversion: split at non-alphanumerics and at camelCase / ACRONYMWord boundaries. */
export function words(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

const capitalize = (w: string) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();

function stripDiacritics(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '');
}

/** Strict UTF-8: decoded bytes that are not text are an error, not replacement characters. */
function utf8(bytes: Buffer, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalidText(
      `The ${what} decodes to bytes that are not UTF-8 text.`,
      'The encoded data is binary; it cannot be shown as text.',
    );
  }
}

function decodeBase64(text: string, url: boolean): string {
  const clean = text.replace(/\s+/g, '');
  const valid = url ? /^[A-Za-z0-9_-]*={0,2}$/ : /^[A-Za-z0-9+/]*={0,2}$/;
  if (!valid.test(clean) || clean.replace(/=+$/, '').length % 4 === 1) {
    throw invalidText(
      `The text is not valid ${url ? 'base64url' : 'base64'}.`,
      url ? 'Use the alphabet A-Z a-z 0-9 - _.' : 'Use the alphabet A-Z a-z 0-9 + / with = padding.',
    );
  }
  return utf8(Buffer.from(clean, url ? 'base64url' : 'base64'), 'base64 text');
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const HTML_NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/**
 * The XML entities, &nbsp; and numeric references; a full HTML5 named-entity table would need a
 * dependency for a rare case, and unknown names are left as written.
 */
function decodeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return HTML_NAMED[ref.toLowerCase()] ?? whole;
  });
}

function decodeHex(text: string): string {
  const clean = text.replace(/\s+/g, '').replace(/^0x/i, '');
  if (!/^(?:[0-9a-f]{2})*$/i.test(clean))
    throw invalidText('The text is not hexadecimal bytes.', 'Give pairs of hex digits, e.g. "48656c6c6f".');
  return utf8(Buffer.from(clean, 'hex'), 'hex text');
}

function lines(text: string): string[] {
  return text.split(/\r?\n/);
}

export function countText(text: string): Record<string, number> {
  return {
    characters: [...text].length,
    graphemes: [...graphemes.segment(text)].length,
    words: [...wordSegmenter.segment(text)].filter((s) => s.isWordLike).length,
    lines: text === '' ? 0 : lines(text).length,
    bytes: Buffer.byteLength(text, 'utf8'),
  };
}

export const OPERATIONS: Record<Exclude<TextOperation, 'count'>, (text: string) => string> = {
  upper: (t) => t.toUpperCase(),
  lower: (t) => t.toLowerCase(),
  title: (t) =>
    t.toLowerCase().replace(/(^|[^\p{L}\p{N}'’])(\p{L})/gu, (_m, pre: string, ch: string) => pre + ch.toUpperCase()),
  sentence: (t) =>
    t.toLowerCase().replace(/(^\s*|[.!?]\s+)(\p{L})/gu, (_m, pre: string, ch: string) => pre + ch.toUpperCase()),
  camel: (t) =>
    words(t)
      .map((w, i) => (i === 0 ? w.toLowerCase() : capitalize(w)))
      .join(''),
  pascal: (t) => words(t).map(capitalize).join(''),
  snake: (t) =>
    words(t)
      .map((w) => w.toLowerCase())
      .join('_'),
  kebab: (t) =>
    words(t)
      .map((w) => w.toLowerCase())
      .join('-'),
  constant: (t) =>
    words(t)
      .map((w) => w.toUpperCase())
      .join('_'),
  trim: (t) => t.trim(),
  trimStart: (t) => t.trimStart(),
  trimEnd: (t) => t.trimEnd(),
  collapseWhitespace: (t) => t.replace(/\s+/g, ' ').trim(),
  slugify: (t) =>
    words(stripDiacritics(t))
      .map((w) => w.toLowerCase())
      .join('-'),
  removeDiacritics: stripDiacritics,
  reverse: (t) =>
    [...graphemes.segment(t)]
      .map((s) => s.segment)
      .reverse()
      .join(''),
  sortLines: (t) =>
    lines(t)
      .sort((a, b) => a.localeCompare(b))
      .join('\n'),
  uniqueLines: (t) => [...new Set(lines(t))].join('\n'),
  reverseLines: (t) => lines(t).reverse().join('\n'),
  base64Encode: (t) => Buffer.from(t, 'utf8').toString('base64'),
  base64Decode: (t) => decodeBase64(t, false),
  base64UrlEncode: (t) => Buffer.from(t, 'utf8').toString('base64url'),
  base64UrlDecode: (t) => decodeBase64(t, true),
  urlEncode: (t) => encodeURIComponent(t),
  urlDecode: (t) => {
    try {
      return decodeURIComponent(t.replace(/\+/g, ' '));
    } catch {
      throw invalidText(
        'The text is not valid percent-encoding.',
        'Every "%" must be followed by two hex digits forming UTF-8 bytes.',
      );
    }
  },
  htmlEncode: (t) => t.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c),
  htmlDecode: decodeHtml,
  hexEncode: (t) => Buffer.from(t, 'utf8').toString('hex'),
  hexDecode: decodeHex,
};
