/**
 * Finding, in a terminal's output, where a shell's line editor shows a line that was typed. Editors
 * show typed text with their own bytes between the characters: bash's readline colours and redraws
 * it, busybox's breaks a long line with `\r\r\n`, mksh scrolls a line too wide for the room after
 * its prompt sideways (afterRedraw), the line discipline answers a Ctrl-U with backspaces. So the
 * typed text is matched character by character, with line ends, carriage returns, backspaces,
 * bells, escape sequences and mksh's redraw of the part already shown allowed between the characters.
 */

import { ESC, escapeLength } from './escape-sequences';

const IGNORED = new Set([0x07, 0x08, 0x0a, 0x0d]);
/** CSI finals kept from a replaced display: m (colours), h and l (modes), n and c (questions). */
const KEPT_FINALS = new Set([0x6d, 0x68, 0x6c, 0x6e, 0x63]);

export interface TypedAt {
  /** Index of the first byte of the shown text. */
  at: number;
  /** Whether all of it was seen; otherwise the bytes ended while it still matched. */
  whole: boolean;
}

type Match = 'whole' | 'partial' | 'no';

const CR = 0x0d;
const SPACE = 0x20;
const BACKSPACE = 0x08;
/** mksh's marks at the right edge of a line scrolled sideways: more to the left, to the right, or both. */
const SCROLL_MARKS = new Set([0x3c, 0x3e, 0x2a]);

function matchFrom(bytes: Uint8Array, start: number, want: Uint8Array, matched = 0): Match {
  let j = matched;
  let k = start;
  while (k < bytes.length) {
    const b = bytes[k]!;
    if (b === want[j]) {
      j++;
      k++;
      if (j === want.length) return 'whole';
    } else if (b === CR && j > 0) {
      const redrawn = afterRedraw(bytes, k + 1, want, j);
      if (redrawn !== 'no') return redrawn;
      k++;
    } else if (IGNORED.has(b)) {
      k++;
    } else if (b === ESC) {
      const n = escapeLength(bytes, k);
      if (n === 0) return 'partial';
      k += n;
    } else {
      return 'no';
    }
  }
  return 'partial';
}

/**
 * A line wider than the screen's room after the prompt: mksh scrolls it sideways. At the edge it
 * returns to the line's start and draws the window of the line that ends at the cursor (the
 * beginning of what was typed cut off, without the prompt), pads the row with spaces, puts a
 * scroll mark (`<`, `>` or `*`) at its end and steps back to the cursor with backspaces; then the
 * typing goes on. `from` is just after the carriage return, `j` how much of `want` was shown: the
 * redraw is skipped and the match goes on after it, or 'no' when what follows is no such redraw.
 */
function afterRedraw(bytes: Uint8Array, from: number, want: Uint8Array, j: number): Match {
  for (let o = 0; o < j; o++) {
    const n = j - o;
    let i = 0;
    while (i < n && from + i < bytes.length && bytes[from + i] === want[o + i]) i++;
    if (from + i === bytes.length) return 'partial';
    if (i < n) continue;
    let p = from + n;
    while (p < bytes.length && bytes[p] === SPACE) p++;
    if (p < bytes.length && SCROLL_MARKS.has(bytes[p]!)) p++;
    if (p === bytes.length) return 'partial';
    // Without the step back it was no redraw (the spaces may be typed text): as if none.
    const at = bytes[p] === BACKSPACE ? p : from + n;
    const r = matchFrom(bytes, at, want, j);
    if (r !== 'no') return r;
  }
  return 'no';
}

/** The earliest place `bytes` shows `want` (or begins to, up to its end); undefined when nowhere. */
export function findTyped(bytes: Uint8Array, want: Uint8Array): TypedAt | undefined {
  if (want.length === 0) return undefined;
  const first = want[0]!;
  for (let i = bytes.indexOf(first); i >= 0; i = bytes.indexOf(first, i + 1)) {
    const r = matchFrom(bytes, i, want);
    if (r !== 'no') return { at: i, whole: r === 'whole' };
  }
  return undefined;
}

/**
 * Where the colour sequences (SGR) right before `at` begin (`at` when there are none): an editor
 * that colours a line it shows (readline's highlighted paste) sets the colour just before it, and
 * that belongs to the display of the line too. Nothing else is taken: a question to the terminal
 * there (busybox's cursor question) must reach the screen.
 */
export function coloursBefore(bytes: Uint8Array, at: number): number {
  let start = at;
  for (;;) {
    let found = -1;
    for (let i = start - 3; i >= Math.max(0, start - 32); i--)
      if (
        bytes[i] === ESC &&
        bytes[i + 1] === 0x5b &&
        bytes[start - 1] === 0x6d &&
        escapeLength(bytes, i) === start - i
      ) {
        found = i;
        break;
      }
    if (found < 0) return start;
    start = found;
  }
}

/**
 * The escape sequences in `bytes` that leave a state behind or ask something rather than draw:
 * colours (SGR), modes (`ESC [ ? … h/l`, bracketed paste for one), OSC strings (a title) and
 * questions to the terminal (`ESC [ 6 n`, `ESC [ c`). When an editor's display of a line is
 * replaced, these are kept, so the terminal ends in the state the editor left it in and answers
 * what the program asked.
 */
export function stateSequences(bytes: Uint8Array): Buffer {
  const kept: Uint8Array[] = [];
  for (let i = bytes.indexOf(ESC); i >= 0; i = bytes.indexOf(ESC, i + 1)) {
    const n = escapeLength(bytes, i);
    if (n === 0) break;
    const kind = bytes[i + 1];
    const final = bytes[i + n - 1]!;
    if (kind === 0x5d || (kind === 0x5b && KEPT_FINALS.has(final))) kept.push(bytes.subarray(i, i + n));
    i += n - 1;
  }
  return Buffer.concat(kept);
}

/**
 * How many bytes at the end of `bytes` are the beginning of `marker` (at most marker.length - 1):
 * held back, since the next piece of output may complete the marker.
 */
export function markerStartAtEnd(bytes: Uint8Array, marker: Uint8Array): number {
  const first = marker[0]!;
  const from = Math.max(0, bytes.length - marker.length + 1);
  for (let i = bytes.indexOf(first, from); i >= 0; i = bytes.indexOf(first, i + 1)) {
    let j = 0;
    while (i + j < bytes.length && bytes[i + j] === marker[j]) j++;
    if (i + j === bytes.length) return bytes.length - i;
  }
  return 0;
}
