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
 * Every argument text of MIN_RUN characters or more, deduplicated. `fields` are the top-level
 * names the tool declares: their keys are the tool's words, not the model's, and name the
 * placeholder; without it every top-level key counts as declared.
 */
export function argumentTexts(args: unknown, fields?: ReadonlySet<string>): ArgumentText[] {
  const out = new Map<string, string>();
  const add = (label: string, text: string) => {
    if (text.length >= MIN_RUN && !out.has(text)) out.set(text, label);
  };
  if (isRecord(args)) {
    for (const key of Object.keys(args)) {
      const declared = fields === undefined || fields.has(key);
      const label = declared && FIELD_NAME.test(key) ? key : UNDECLARED;
      if (!declared) addForms(key, label, add);
      collect(args[key], label, 1, add);
    }
  } else {
    collect(args, UNDECLARED, 0, add);
  }
  return [...out].map(([text, label]) => ({ label, text }));
}

type Add = (label: string, text: string) => void;

function collect(value: unknown, label: string, depth: number, add: Add): void {
  switch (typeof value) {
    case 'string':
      addForms(value, label, add);
      return;
    case 'number':
    case 'bigint':
      add(label, String(value));
      return;
    case 'object': {
      if (value === null || depth >= MAX_DEPTH) return;
      if (Array.isArray(value)) {
        for (const item of value) collect(item, label, depth + 1, add);
        return;
      }
      for (const key of Object.keys(value)) {
        addForms(key, label, add);
        collect((value as Record<string, unknown>)[key], label, depth + 1, add);
      }
      return;
    }
    default:
      return;
  }
}

function addForms(text: string, label: string, add: Add): void {
  if (text.length < MIN_RUN) return;
  const forms = new Set<string>([text]);
  forms.add(text.normalize('NFC'));
  forms.add(text.normalize('NFKC'));
  forms.add(JSON.stringify(text).slice(1, -1));
  // Case is compared unit by unit; a letter whose other case is longer (ß, İ) needs its own form.
  for (const cased of [text.toLowerCase(), text.toUpperCase()]) if (cased.length !== text.length) forms.add(cased);
  addEncodings(text, forms);
  if (text.length <= MAX_URL_LENGTH) addUrlForms(text, forms);
  for (const form of forms) {
    add(label, form);
    add(label, normalizeSpacing(form));
  }
}

function addEncodings(text: string, forms: Set<string>): void {
  const tries: Array<() => string> = [
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
      // A lone surrogate cannot be encoded, a stray % cannot be decoded: that form does not exist.
    }
  }
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
