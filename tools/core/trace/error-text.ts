/**
 * cleanErrorText: an error message fit to write down. Every run of MIN_RUN (8) or more characters
 * that also occurs in an argument of the call — in any form argumentTexts lists, case-insensitively,
 * also where the message percent-encodes it — becomes a placeholder naming the field (`‹url›`), the
 * text is bounded (1 KB) and control characters are gone. The rule that holds: no 8-character
 * window of any argument text survives, whatever the message.
 *
 * How: the message's 8-character windows are indexed by a rolling hash; each argument text is
 * rolled over once and every window it shares with the message marks those characters covered;
 * covered runs are replaced. A placeholder or the bound's ellipsis could in principle complete a
 * window with its neighbours (an argument may contain `‹`), so the result is scanned again, and a
 * text that cannot be made clean is dropped whole, as is every text of a call whose arguments were
 * too large to check (argumentTexts gives UNCHECKED): the cost stays bounded whatever the call.
 */
import { type ArgumentText, MIN_RUN, argumentTexts, isUnchecked, normalizeSpacing } from './argument-text';

export const ERROR_TEXT_LIMIT = 1024;
/** Rounds of replace-and-rescan before giving up on a text. */
const MAX_ROUNDS = 4;
const ELLIPSIS = '…';

export interface CleanOptions {
  /** The tool's declared top-level fields (see argumentTexts). */
  fields?: ReadonlySet<string>;
  /** Longest result, in UTF-16 units; default ERROR_TEXT_LIMIT. */
  limit?: number;
}

export function cleanErrorText(text: string, args: unknown, options: CleanOptions = {}): string {
  return cleanWith(text, argumentTexts(args, options.fields), options.limit ?? ERROR_TEXT_LIMIT);
}

/** cleanErrorText with the argument texts already collected. */
export function cleanWith(text: string, texts: readonly ArgumentText[], limit = ERROR_TEXT_LIMIT): string {
  // The raw text is cut first: nothing past the bound is kept, so nothing past it needs scanning.
  let out = bound(normalizeSpacing(text.length > limit * 4 ? text.slice(0, limit * 4) : text), limit);
  if (texts.length === 0 || out.length < MIN_RUN) return out;
  if (isUnchecked(texts)) return '';
  const needles = texts.map(needleOf);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const labels = coverage(out, needles);
    if (labels === undefined) return out;
    out = bound(replaceCovered(out, labels), limit);
  }
  return '';
}

/** Whether any 8-character window of an argument text occurs in `text` (case-insensitively). */
export function repeatsArgumentText(text: string, texts: readonly ArgumentText[]): boolean {
  const normalized = normalizeSpacing(text);
  if (isUnchecked(texts)) return normalized.length >= MIN_RUN;
  return coverage(normalized, texts.map(needleOf)) !== undefined;
}

/** An argument text to look for: scanned as it is while it is ASCII, else folded once into `units`. */
interface Needle {
  label: string;
  text: string;
  units: Uint16Array | undefined;
}

function needleOf(t: ArgumentText): Needle {
  return { label: t.label, text: t.text, units: undefined };
}

/** At most `limit` units, cut on a character boundary and outside a placeholder, with an ellipsis when cut. */
function bound(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let cut = limit - ELLIPSIS.length;
  if (isLowSurrogate(text.charCodeAt(cut))) cut--;
  const open = text.lastIndexOf('‹', cut - 1);
  if (open >= 0 && text.indexOf('›', open) >= cut) cut = open;
  return `${text.slice(0, cut).trimEnd()}${ELLIPSIS}`;
}

/** Per character of `text`, the label of the argument text covering it; undefined when nothing is covered. */
function coverage(text: string, needles: readonly Needle[]): Array<string | undefined> | undefined {
  if (text.length < MIN_RUN) return undefined;
  const views = [plainView(text)];
  if (text.includes('%')) {
    const decoded = decodedView(text);
    if (decoded !== undefined) views.push(decoded);
  }
  let labels: Array<string | undefined> | undefined;
  for (const view of views) {
    const index = windowIndex(view.units);
    if (index.starts.size === 0) continue;
    for (const needle of needles) {
      const found = (at: number) => {
        labels ??= new Array<string | undefined>(text.length);
        const from = view.start[at] as number;
        const to = view.end[at + MIN_RUN - 1] as number;
        for (let i = from; i < to; i++) labels[i] ??= needle.label;
      };
      if (needle.units === undefined && forEachSharedAsciiWindow(needle.text, view.units, index, found)) continue;
      needle.units ??= fold(needle.text);
      forEachSharedWindow(needle.units, view.units, index, found);
    }
  }
  return labels;
}

function replaceCovered(text: string, labels: Array<string | undefined>): string {
  // A covered run never starts or ends inside a surrogate pair: half a character is not text.
  for (let i = 1; i < text.length; i++) {
    if (isLowSurrogate(text.charCodeAt(i)) && isHighSurrogate(text.charCodeAt(i - 1))) {
      const label = labels[i] ?? labels[i - 1];
      labels[i] = label;
      labels[i - 1] = label;
    }
  }
  let out = '';
  let i = 0;
  while (i < text.length) {
    const label = labels[i];
    if (label === undefined) {
      out += text[i];
      i++;
      continue;
    }
    while (i < text.length && labels[i] === label) i++;
    out += `‹${label}›`;
  }
  return out;
}

interface View {
  /** Folded UTF-16 units of the view. */
  units: Uint16Array;
  /** For each unit of the view, the range of the original text it stands for. */
  start: Int32Array;
  end: Int32Array;
}

function plainView(text: string): View {
  const units = fold(text);
  const start = new Int32Array(units.length);
  const end = new Int32Array(units.length);
  for (let i = 0; i < units.length; i++) {
    start[i] = i;
    end[i] = i + 1;
  }
  return { units, start, end };
}

/**
 * The message with each run of %XX escapes decoded as UTF-8; each decoded character stands for its
 * whole run, so a match inside the run covers all of it.
 */
function decodedView(text: string): View | undefined {
  const chars: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let changed = false;
  let i = 0;
  while (i < text.length) {
    const runStart = i;
    const bytes: number[] = [];
    while (i + 2 < text.length && text[i] === '%' && isHex(text.charCodeAt(i + 1)) && isHex(text.charCodeAt(i + 2))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 3;
    }
    if (bytes.length > 0) {
      changed = true;
      for (const unit of new TextDecoder().decode(new Uint8Array(bytes))) {
        for (let k = 0; k < unit.length; k++) {
          chars.push(unit[k] as string);
          starts.push(runStart);
          ends.push(i);
        }
      }
      continue;
    }
    chars.push(text[i] as string);
    starts.push(i);
    ends.push(i + 1);
    i++;
  }
  if (!changed) return undefined;
  return { units: fold(chars.join('')), start: Int32Array.from(starts), end: Int32Array.from(ends) };
}

// Rolling hash over MIN_RUN units: h = Σ u[i]·B^(W−1−i) mod 2^32.
const BASE = 0x01000193;
let TOP = 1;
for (let i = 1; i < MIN_RUN; i++) TOP = Math.imul(TOP, BASE);

/**
 * The text's windows: start positions by hash, and a bit per hash bucket, so the argument texts
 * (up to a megabyte) are rolled over with one bit test per position and the map is asked only on a hit.
 */
interface WindowIndex {
  starts: Map<number, number[]>;
  bits: Uint32Array;
}

const BUCKET_BITS = 16;

function bucketOf(h: number): number {
  return Math.imul(h, 0x9e3779b1) >>> (32 - BUCKET_BITS);
}

function mayHold(index: WindowIndex, h: number): boolean {
  const b = bucketOf(h);
  return ((index.bits[b >>> 5] as number) & (1 << (b & 31))) !== 0;
}

function windowIndex(units: Uint16Array): WindowIndex {
  const index: WindowIndex = { starts: new Map(), bits: new Uint32Array((1 << BUCKET_BITS) / 32) };
  if (units.length < MIN_RUN) return index;
  let h = 0;
  for (let i = 0; i < MIN_RUN; i++) h = (Math.imul(h, BASE) + (units[i] as number)) | 0;
  for (let at = 0; ; at++) {
    const bucket = index.starts.get(h);
    if (bucket === undefined) index.starts.set(h, [at]);
    else bucket.push(at);
    const b = bucketOf(h);
    index.bits[b >>> 5] = (index.bits[b >>> 5] as number) | (1 << (b & 31));
    if (at + MIN_RUN >= units.length) break;
    h = roll(h, units[at] as number, units[at + MIN_RUN] as number);
  }
  return index;
}

/** Calls `found(at)` for each window of the text (by start) that equals some window of the folded needle. */
function forEachSharedWindow(
  needle: Uint16Array,
  text: Uint16Array,
  index: WindowIndex,
  found: (at: number) => void,
): void {
  if (needle.length < MIN_RUN) return;
  let h = 0;
  for (let i = 0; i < MIN_RUN; i++) h = (Math.imul(h, BASE) + (needle[i] as number)) | 0;
  for (let from = 0; ; from++) {
    if (mayHold(index, h)) {
      for (const at of index.starts.get(h) ?? []) if (sameWindow(needle, from, text, at)) found(at);
    }
    if (from + MIN_RUN >= needle.length) break;
    h = roll(h, needle[from] as number, needle[from + MIN_RUN] as number);
  }
}

/**
 * forEachSharedWindow for a needle still in string form, folding ASCII on the way (as fold does).
 * Returns false at the first unit that is not ASCII: the caller then folds the needle and scans it
 * whole (windows already found are found again, which marks nothing new).
 */
function forEachSharedAsciiWindow(
  needle: string,
  text: Uint16Array,
  index: WindowIndex,
  found: (at: number) => void,
): boolean {
  const n = needle.length;
  if (n < MIN_RUN) return true;
  let h = 0;
  for (let i = 0; i < MIN_RUN; i++) {
    const c = needle.charCodeAt(i);
    if (c >= 0x80) return false;
    h = (Math.imul(h, BASE) + foldAscii(c)) | 0;
  }
  for (let from = 0; ; from++) {
    if (mayHold(index, h)) {
      for (const at of index.starts.get(h) ?? []) if (sameAsciiWindow(needle, from, text, at)) found(at);
    }
    const next = from + MIN_RUN;
    if (next >= n) return true;
    const c = needle.charCodeAt(next);
    if (c >= 0x80) return false;
    h = roll(h, foldAscii(needle.charCodeAt(from)), foldAscii(c));
  }
}

function foldAscii(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}

function sameAsciiWindow(a: string, ai: number, b: Uint16Array, bi: number): boolean {
  for (let k = 0; k < MIN_RUN; k++) if (foldAscii(a.charCodeAt(ai + k)) !== b[bi + k]) return false;
  return true;
}

function roll(h: number, out: number, next: number): number {
  return (Math.imul((h - Math.imul(out, TOP)) | 0, BASE) + next) | 0;
}

function sameWindow(a: Uint16Array, ai: number, b: Uint16Array, bi: number): boolean {
  for (let k = 0; k < MIN_RUN; k++) if (a[ai + k] !== b[bi + k]) return false;
  return true;
}

/**
 * Case-folded UTF-16 units, the same length as the text so positions map back: each character
 * lower-cased where its lower case has the same length in units. A surrogate pair is folded as one
 * code point (Adlam, Deseret, Osage… have astral upper and lower cases of two units each).
 */
function fold(text: string): Uint16Array {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isHighSurrogate(c) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      const pair = foldPair(text.slice(i, i + 2));
      units[i] = pair.charCodeAt(0);
      units[i + 1] = pair.charCodeAt(1);
      i++;
    } else units[i] = foldUnit(c);
  }
  return units;
}

const foldCache = new Map<number, number>();
const pairCache = new Map<string, string>();

function foldUnit(c: number): number {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
  if (c >= 0xd800 && c <= 0xdfff) return c;
  let folded = foldCache.get(c);
  if (folded === undefined) {
    const lower = String.fromCharCode(c).toLowerCase();
    folded = lower.length === 1 ? lower.charCodeAt(0) : c;
    foldCache.set(c, folded);
  }
  return folded;
}

function foldPair(pair: string): string {
  let folded = pairCache.get(pair);
  if (folded === undefined) {
    const lower = pair.toLowerCase();
    folded = lower.length === 2 ? lower : pair;
    pairCache.set(pair, folded);
  }
  return folded;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
