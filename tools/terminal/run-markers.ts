/**
 * How terminal.run finds a command's output and exit status in a terminal's byte stream. The
 * command is typed at the prompt between two printf calls that print a start and an end marker,
 * the end one with `$?`. The markers are printed by joining two words (`printf '%s%s' tgS _N`), so
 * the echo of the typed line, which shows the words apart, never looks like a marker; the nonce is
 * fresh per run, so output of an earlier run cannot end a later one. Plain POSIX sh.
 *
 * Two styles: `osc` wraps the markers in an operating-system-command sequence (ESC ] 7770 ; … BEL),
 * which a terminal does not display, so a person watching sees only the typed line and the output
 * (bash, dash, busybox ash and mksh printf all know `\033`). The typed line holds `\033` as four
 * characters, never the ESC byte itself, so its echo cannot look like a marker and the line can be
 * short. `text` prints the markers as lines, for shells whose printf knows no octal escapes (the
 * virtual phone's), with the two-word trick.
 */
import { RUN_OUTPUT_LIMIT } from './limits';

export type MarkerStyle = 'osc' | 'text';

export interface RunLine {
  /** What to type (without the line end). */
  line: string;
  /** The whole start marker; with `text`, output begins after the line end that follows it. */
  start: string;
  /** The end marker up to the exit status digits. */
  end: string;
  style: MarkerStyle;
}

/**
 * Drops a trailing `#` comment (a `#` that starts a word outside quotes), which would otherwise
 * swallow the end marker. The comment ran nothing, so nothing is lost.
 */
export function stripComment(command: string): string {
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === '\\') {
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '#' && (i === 0 || /[\s;&|()]/.test(command[i - 1]!))) {
      return command.slice(0, i);
    }
  }
  return command;
}

/** Why a command cannot be typed as one line and end cleanly, or undefined when it can. */
export function unrunnable(command: string): string | undefined {
  if (/[\r\n]/.test(command))
    return 'it spans several lines; join them with ";" or "&&", or type them with terminal.write';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this refuses
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(command)) return 'it holds control characters; send keys with terminal.write';
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === '\\') {
      if (i === command.length - 1) return 'it ends with a backslash, so the shell would wait for a next line';
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') quote = c;
  }
  if (quote) return `a ${quote === "'" ? 'single' : 'double'} quote is not closed, so the shell would wait for more`;
  return undefined;
}

export function buildRunLine(command: string, nonce: string, style: MarkerStyle = 'text'): RunLine {
  let body = stripComment(command).trim();
  // A trailing `;` would make `;;`; a trailing `&` already separates the next command.
  while (body.endsWith(';') && !body.endsWith('\\;')) body = body.slice(0, -1).trimEnd();
  const background = /(^|[^&])&$/.test(body);
  const sep = body === '' ? '' : background ? ' ' : '; ';
  if (style === 'osc')
    return {
      line: `printf '\\033]7770;S${nonce}\\007';${body}${sep}printf '\\033]7770;E${nonce}_%d\\007' $?`,
      start: `\x1b]7770;S${nonce}\x07`,
      end: `\x1b]7770;E${nonce}_`,
      style,
    };
  return {
    line: `printf '%s%s\\n' __tg_S _${nonce}; ${body}${sep}printf '%s%s_%d\\n' __tg_E _${nonce} $?`,
    start: `__tg_S_${nonce}`,
    end: `__tg_E_${nonce}_`,
    style,
  };
}

export interface RunOutput {
  /** The command's bytes between the markers; the end is kept when cut. */
  output: Buffer;
  exitCode: number;
  /** Bytes the command printed in all. */
  bytes: number;
  truncated: boolean;
}

/**
 * Watches a terminal's output for one run's markers. Only a bounded tail of the output is held, so
 * a command printing gigabytes costs no more memory than one printing a line.
 */
export class RunCapture {
  private started = false;
  private head = Buffer.alloc(0);
  /** The output's newest bytes, at most about `limit`. */
  private chunks: Buffer[] = [];
  private held = 0;
  private total = 0;
  /** The last bytes seen, so a marker split across two chunks is still found. */
  private carry = Buffer.alloc(0);
  /** From the end marker on, until its line is complete. */
  private pendingEnd: Buffer | undefined;
  private done: RunOutput | undefined;

  constructor(
    private readonly markers: Pick<RunLine, 'start' | 'end' | 'style'>,
    private readonly limit = RUN_OUTPUT_LIMIT,
  ) {}

  get result(): RunOutput | undefined {
    return this.done;
  }

  /** Whether the start marker was seen (the command began). */
  get began(): boolean {
    return this.started;
  }

  /** Feeds output; returns the result once the end marker's line was seen. */
  push(chunk: Buffer): RunOutput | undefined {
    if (this.done) return this.done;
    if (this.started) return this.feed(chunk);
    this.head = Buffer.concat([this.head, chunk]);
    const at = this.head.indexOf(this.markers.start, 0, 'latin1');
    if (at < 0) {
      if (this.head.length > 4096)
        this.head = Buffer.from(this.head.subarray(this.head.length - this.markers.start.length));
      return undefined;
    }
    const begin =
      this.markers.style === 'osc'
        ? at + Buffer.byteLength(this.markers.start, 'latin1')
        : this.head.indexOf(0x0a, at) + 1;
    if (begin <= 0) return undefined;
    this.started = true;
    const rest = this.head.subarray(begin);
    this.head = Buffer.alloc(0);
    return rest.length > 0 ? this.feed(rest) : undefined;
  }

  /** Bytes of output so far. */
  get bytes(): number {
    return this.total;
  }

  /** The output seen so far (for a run that ended without its marker: timeout, exit, interrupt). */
  partial(): { output: Buffer; bytes: number; truncated: boolean } {
    const output = this.kept();
    return { output, bytes: this.total, truncated: this.total > output.length };
  }

  private feed(chunk: Buffer): RunOutput | undefined {
    if (this.pendingEnd) {
      this.pendingEnd = Buffer.concat([this.pendingEnd, chunk]);
      return this.finish();
    }
    const carried = this.carry.length;
    const window = carried > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const at = window.indexOf(this.markers.end, 0, 'latin1');
    if (at < 0) {
      this.store(chunk);
      this.carry = Buffer.from(window.subarray(Math.max(0, window.length - this.markers.end.length)));
      return undefined;
    }
    if (at >= carried) this.store(chunk.subarray(0, at - carried));
    else this.unstore(carried - at);
    this.pendingEnd = Buffer.from(window.subarray(at));
    return this.finish();
  }

  private finish(): RunOutput | undefined {
    const after = this.pendingEnd!.subarray(this.markers.end.length).toString('latin1');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the osc marker ends with BEL
    const digits = /^(\d+)(?:\r?\n|\x07)/.exec(after);
    if (!digits) return undefined;
    const output = this.kept();
    this.done = { output, exitCode: Number(digits[1]), bytes: this.total, truncated: this.total > output.length };
    return this.done;
  }

  private store(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.chunks.push(Buffer.from(bytes));
    this.held += bytes.length;
    this.total += bytes.length;
    while (this.chunks.length > 1 && this.held - this.chunks[0]!.length >= this.limit)
      this.held -= this.chunks.shift()!.length;
  }

  /** Takes back the last `n` stored bytes: they turned out to be the start of the end marker. */
  private unstore(n: number): void {
    this.total -= n;
    let left = n;
    while (left > 0 && this.chunks.length > 0) {
      const last = this.chunks[this.chunks.length - 1]!;
      if (last.length <= left) {
        this.chunks.pop();
        this.held -= last.length;
        left -= last.length;
      } else {
        this.chunks[this.chunks.length - 1] = last.subarray(0, last.length - left);
        this.held -= left;
        left = 0;
      }
    }
  }

  private kept(): Buffer {
    const all = Buffer.concat(this.chunks);
    return all.length > this.limit ? Buffer.from(all.subarray(all.length - this.limit)) : all;
  }
}
