/**
 * The texts of a call's arguments, in every form an error message may repeat them: each string
 * anywhere in the arguments, numbers as they print, keys a model chose, and what a tool makes of a
 * value before it shows it — a URL once parsed (whole, origin, host, path and its segments, query
 * values), percent-encoded and decoded, JSON-escaped, Unicode-normalized, with its whitespace
 * collapsed as the cleaner collapses a message's. Each text carries the label its placeholder
 * shows: the top-level field it came from when the tool declares that field, else `arg`.
 */

export interface ArgumentText {
  label: string;
  text: string;
}

/** The shortest run of argument text that counts as repeating it. */
export const MIN_RUN = 8;
/** Deeper than this is treated as a cycle or abuse; its contents are not collected. */
const MAX_DEPTH = 64;
/** URL forms are worked out only for strings this short: nothing longer is a URL a tool parses. */
const MAX_URL_LENGTH = 8192;
const UNDECLARED = 'arg';
/** A label must read as a field name; anything else a key holds is shown as `arg`. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;

/**
 * Characters a stored message never keeps: C0/C1 controls, DEL, line and paragraph separators,
 * zero-width and bidirectional formatting characters (they reorder or hide what a person reads).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]+/g;

/** The one normalization both a message and the argument texts get: controls out, whitespace runs as one space. */
export function normalizeSpacing(text: string): string {
  return text.replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * How much collecting may cost, in work units: one per value visited, one per UTF-16 unit of each
 * text whose forms are worked out and each form kept, and a few per text. Cleaning a message scans
 * every kept form, so this bounds both, whatever the arguments: a call carrying megabytes of text
 * is not checked line by line on the host's event loop (the bench for it is bench/isolation.bench.ts).
 */
export const MAX_CHECK_COST = 1 << 20;
const COST_PER_TEXT = 64;
/**
 * Forms of a text that is not plain ASCII may be far longer than it (percent-encoding, NFKC), so
 * such a text is taken only while this many times its length still fits in what is left.
 */
const NON_ASCII_FACTOR = 16;

/**
 * What argumentTexts gives for arguments too large to check within MAX_CHECK_COST: one entry whose
 * text is empty (a collected text never is). A message cleaned with it is dropped whole and a slug
 * falls back to its code's: what was not checked is not written down.
 */
export const UNCHECKED: ArgumentText = Object.freeze({ label: UNDECLARED, text: '' });

/** Whether the texts stand for arguments too large to check (see UNCHECKED). */
export function isUnchecked(texts: readonly ArgumentText[]): boolean {
  return texts.length === 1 && texts[0]?.text === '';
}

/**
 * Every argument text of MIN_RUN characters or more, deduplicated; [UNCHECKED] when the arguments
 * are too large to check. `fields` are the top-level names the tool declares: their keys are the
 * tool's words, not the model's, and name the placeholder; without it every top-level key counts
 * as declared.
 */
export function argumentTexts(args: unknown, fields?: ReadonlySet<string>): ArgumentText[] {
  if (exceedsCheckCost(args)) return [UNCHECKED];
  const texts = new TextCollector();
  if (isRecord(args)) {
    for (const key of Object.keys(args)) {
      const declared = fields === undefined || fields.has(key);
      const label = declared && FIELD_NAME.test(key) ? key : UNDECLARED;
      if (!declared) texts.addForms(key, label);
      texts.collect(args[key], label, 1);
    }
  } else {
    texts.collect(args, UNDECLARED, 0);
  }
  return texts.result();
}

/**
 * Whether the arguments' texts alone (their lengths, and what a text costs besides them, counted
 * wherever a text appears) pass MAX_CHECK_COST: found without reading any text, so megabytes are
 * refused at once rather than after a megabyte of reading.
 */
function exceedsCheckCost(args: unknown): boolean {
  let cost = 0;
  const visit = (value: unknown, depth: number): boolean => {
    cost++;
    if (typeof value === 'string') cost += value.length >= MIN_RUN ? COST_PER_TEXT + value.length : 0;
    else if (typeof value === 'object' && value !== null && depth < MAX_DEPTH) {
      if (Array.isArray(value)) {
        for (const item of value) if (visit(item, depth + 1)) return true;
      } else {
        for (const key of Object.keys(value)) {
          cost += key.length;
          if (visit((value as Record<string, unknown>)[key], depth + 1)) return true;
        }
      }
    }
    return cost > MAX_CHECK_COST;
  };
  return visit(args, 0);
}

/** The texts of one call's arguments and what collecting them has cost so far. */
class TextCollector {
  private readonly out = new Map<string, string>();
  private readonly done = new Set<string>();
  private cost = 0;

  get full(): boolean {
    return this.cost > MAX_CHECK_COST;
  }

  result(): ArgumentText[] {
    if (this.full) return [UNCHECKED];
    return [...this.out].map(([text, label]) => ({ label, text }));
  }

  collect(value: unknown, label: string, depth: number): void {
    if (this.full) return;
    this.cost++;
    switch (typeof value) {
      case 'string':
        this.addForms(value, label);
        return;
      case 'number':
      case 'bigint':
        this.add(label, String(value));
        return;
      case 'object': {
        if (value === null || depth >= MAX_DEPTH) return;
        if (Array.isArray(value)) {
          for (const item of value) this.collect(item, label, depth + 1);
          return;
        }
        for (const key of Object.keys(value)) {
          this.addForms(key, label);
          this.collect((value as Record<string, unknown>)[key], label, depth + 1);
        }
        return;
      }
      default:
        return;
    }
  }

  addForms(text: string, label: string): void {
    if (text.length < MIN_RUN || this.full || this.done.has(text)) return;
    this.cost += COST_PER_TEXT + text.length;
    if (this.full) return;
    const changed = changedBy(text);
    if (changed & NON_ASCII) {
      this.cost += (NON_ASCII_FACTOR - 1) * text.length;
      if (this.full) return;
    }
    this.done.add(text);
    for (const form of formsOf(text, changed)) {
      this.add(label, form);
      // Percent-encodings hold no whitespace or control character; the other forms may.
      if (form === text ? changed & SPACING : !isPercentEncoded(form)) this.add(label, normalizeSpacing(form));
    }
  }

  private add(label: string, text: string): void {
    if (text.length < MIN_RUN || this.out.has(text)) return;
    this.out.set(text, label);
    this.cost += text.length;
  }
}

// What in a text a form can change. An ASCII character is changed by a form exactly when the form
// changes it alone (each form works character by character on ASCII), so the table below is made by
// asking the forms themselves; NFC, NFKC and case of the same length never change ASCII.
const JSON_ESCAPED = 1;
const URI = 2;
const COMPONENT = 4;
const FORM = 8;
const PERCENT = 16;
const PLUS = 32;
const SPACING = 64;
const COLON = 128;
const NON_ASCII = 256;
const ALL = 511;

const ASCII_CHANGES = (() => {
  const table = new Uint16Array(128);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    let flags = 0;
    if (JSON.stringify(ch).slice(1, -1) !== ch) flags |= JSON_ESCAPED;
    if (encodeURI(ch) !== ch) flags |= URI;
    if (encodeURIComponent(ch) !== ch) flags |= COMPONENT;
    if (formEncoded(ch) !== ch) flags |= FORM;
    if (ch === '%') flags |= PERCENT;
    if (ch === '+') flags |= PLUS;
    if (normalizeSpacing(`a${ch}a`) !== `a${ch}a` || ch.trim() !== ch) flags |= SPACING;
    if (ch === ':') flags |= COLON;
    table[c] = flags;
  }
  return table;
})();

/** The forms that may differ from the text: every one for a text that is not all ASCII. */
function changedBy(text: string): number {
  let flags = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return ALL;
    flags |= ASCII_CHANGES[c] as number;
  }
  return flags;
}

/** The text and its forms, each computed only when `changed` says it can differ from the text. */
function formsOf(text: string, changed: number): Set<string> {
  const forms = new Set<string>([text]);
  if (changed & NON_ASCII) {
    forms.add(text.normalize('NFC'));
    forms.add(text.normalize('NFKC'));
    // Case is compared unit by unit; a letter whose other case is longer (ß, İ) needs its own form.
    for (const cased of [text.toLowerCase(), text.toUpperCase()]) if (cased.length !== text.length) forms.add(cased);
  }
  if (changed & JSON_ESCAPED) forms.add(JSON.stringify(text).slice(1, -1));
  addEncodings(text, changed, forms);
  // Without a colon a text has no scheme, and the URL parser refuses it without a base.
  if (changed & COLON && text.length <= MAX_URL_LENGTH) addUrlForms(text, forms);
  return forms;
}

const PERCENT_ENCODED = /^[A-Za-z0-9%!#$&'()*+,\-./:;=?@_~]*$/;

function isPercentEncoded(form: string): boolean {
  return PERCENT_ENCODED.test(form);
}

function addEncodings(text: string, changed: number, forms: Set<string>): void {
  const tries: Array<() => string> = [];
  if (changed & URI) tries.push(() => encodeURI(text));
  if (changed & COMPONENT) tries.push(() => encodeURIComponent(text));
  if (changed & FORM) tries.push(() => formEncoded(text));
  if (changed & PERCENT) tries.push(() => decodeURIComponent(text));
  if (changed & (PERCENT | PLUS)) tries.push(() => decodeURIComponent(text.replace(/\+/g, ' ')));
  for (const form of tries) {
    try {
      forms.add(form());
    } catch {
      // A lone surrogate cannot be encoded, a stray % cannot be decoded: that form does not exist.
    }
  }
}

/**
 * The text as a URL query value (application/x-www-form-urlencoded), as URLSearchParams prints it.
 * That serializer is JavaScript in Node and slow on long texts; for well-formed text it is
 * encodeURIComponent with a space as `+` and `!'()~` escaped too (test/core/argument-texts.test.ts
 * compares the two).
 */
export function formEncoded(text: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    // A lone surrogate: URLSearchParams writes it as U+FFFD where encodeURIComponent gives up.
    return new URLSearchParams([['', text]]).toString().slice(1);
  }
  return encoded.replace(/%20|[!'()~]/g, (m) => (m === '%20' ? '+' : `%${m.charCodeAt(0).toString(16).toUpperCase()}`));
}

/** What the URL parser (and a browser, which follows the same standard) prints for a URL-like text. */
function addUrlForms(text: string, forms: Set<string>): void {
  const trimmed = text.trim();
  if (!URL.canParse(trimmed)) return;
  const url = new URL(trimmed);
  const parts = [url.href, url.origin, url.host, url.hostname, url.pathname, url.search, url.hash];
  parts.push(url.username, url.password);
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  parts.push(bare.href, `${bare.origin}${bare.pathname}`);
  for (const segment of url.pathname.split('/')) parts.push(segment);
  for (const [name, value] of url.searchParams) parts.push(name, value);
  for (const part of parts) {
    forms.add(part);
    try {
      forms.add(decodeURIComponent(part));
    } catch {
      // not decodable: only its encoded form can appear
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
