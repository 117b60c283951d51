/**
 * Output the screen model may leave unparsed without its screen or scrollback ending any
 * different: plain text (no escape sequence, no SO or SI: the other controls change no state)
 * followed by whole lines, each ending in CR LF, more than twice the
 * screen's rows beyond its scrollback: they move the cursor to the bottom, then scroll everything
 * the skipped text drew out of the screen and the scrollback, and the terminal's state (colours,
 * modes, cursor column at a line's start) is what it was. Not while a scroll region is set: lines
 * drawn outside it stay.
 * A flood (`yes`, a build log) is mostly that, and parsing it costs far more than reading it: each
 * line scrolls the whole screen.
 */
import { ESC, escapeLength } from './escape-sequences';

const LF = 0x0a;
const CR = 0x0d;
/** SO and SI: the controls that change a state (the character set in use) without an escape sequence. */
const SHIFTS = [0x0e, 0x0f];
/** An escape sequence cut between two pieces is followed at most this far. */
const MAX_OPEN_SEQUENCE = 4096;

/** Follows pieces of output as the screen parses them, and says which bytes of the next one it need not parse. */
export class UnseenOutput {
  /** The start of an escape sequence the last piece ended inside. */
  private open: Buffer | undefined;
  /** Inside a sequence too long to follow: the parser's state is known again after the next ESC. */
  private lost = false;

  /** A scroll region narrower than the screen is set. */
  private margins = false;

  constructor(private readonly size: () => { rows: number; scrollback: number }) {}

  /** The range [from, to) of `data` that may be left unparsed, or undefined. */
  unseen(data: Buffer): { from: number; to: number } | undefined {
    // After the last escape sequence the parser is in its ground state: an ESC inside a string
    // sequence can only be the ST that ends it.
    let start = 0;
    const lastEsc = data.lastIndexOf(ESC);
    if (lastEsc >= 0 && !this.followMargins(data)) return undefined;
    if (this.margins) return undefined;
    if (lastEsc >= 0) {
      const n = escapeLength(data, lastEsc);
      if (n === 0) return undefined;
      start = lastEsc + n;
    } else if (this.lost) {
      return undefined;
    } else if (this.open) {
      const n = escapeLength(Buffer.concat([this.open, data.subarray(0, MAX_OPEN_SEQUENCE)]), 0);
      if (n === 0) return undefined;
      start = n - this.open.length;
    }
    const { rows, scrollback } = this.size();
    const keep = scrollback + 2 * rows;
    // The kept lines, found from the end: each must end in CR LF.
    let cut = -1;
    let at = data.length;
    for (let lines = 0; lines <= keep; lines++) {
      const lf = data.lastIndexOf(LF, at - 1);
      if (lf <= start || data[lf - 1] !== CR) return undefined;
      at = lf;
      if (lines === keep) cut = lf + 1;
    }
    // What is skipped must not shift the character set (SO, SI): the other controls only move the
    // cursor or ring, and what they touch scrolls away.
    for (const shift of SHIFTS) {
      const i = data.indexOf(shift, start);
      if (i >= 0 && i < cut) return undefined;
    }
    return cut > start ? { from: start, to: cut } : undefined;
  }

  /**
   * Notes scroll regions set (DECSTBM) and reset (full region, soft or hard reset) in `data`;
   * false when a sequence is cut at its end.
   */
  private followMargins(data: Buffer): boolean {
    const rows = this.size().rows;
    for (let i = data.indexOf(ESC); i >= 0; i = data.indexOf(ESC, i + 1)) {
      const n = escapeLength(data, i);
      if (n === 0) return false;
      const kind = data[i + 1];
      const final = data[i + n - 1];
      if (kind === 0x63) this.margins = false;
      else if (kind === 0x5b && final === 0x70 && data[i + n - 2] === 0x21) this.margins = false;
      else if (kind === 0x5b && final === 0x72) {
        const params = data.toString('latin1', i + 2, i + n - 1);
        if (/^[\d;]*$/.test(params)) {
          const [top, bottom] = params.split(';').map((p) => (p === '' ? undefined : Number(p)));
          this.margins = (top ?? 1) > 1 || (bottom ?? rows) < rows;
        }
      }
      i += n - 1;
    }
    return true;
  }

  /** `parsed` went to the screen: remembers whether it ended inside an escape sequence. */
  parsed(parsed: Buffer): void {
    const q = parsed.lastIndexOf(ESC);
    if (q >= 0) {
      const complete = escapeLength(parsed, q) > 0;
      const short = parsed.length - q <= MAX_OPEN_SEQUENCE;
      this.open = complete || !short ? undefined : Buffer.from(parsed.subarray(q));
      this.lost = !complete && !short;
      return;
    }
    if (!this.open) return;
    if (escapeLength(Buffer.concat([this.open, parsed.subarray(0, MAX_OPEN_SEQUENCE)]), 0) > 0) this.open = undefined;
    else if (this.open.length + parsed.length <= MAX_OPEN_SEQUENCE) this.open = Buffer.concat([this.open, parsed]);
    else {
      this.open = undefined;
      this.lost = true;
    }
  }
}
