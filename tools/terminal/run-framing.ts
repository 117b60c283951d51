/**
 * What a person and the model see of an agent's terminal.run: the command, then its output. The
 * line a run types carries framing (run-markers.ts), and the shell shows that whole line as it is
 * typed. A RunFraming sits between the PTY and everything that reads a terminal (the output log
 * behind observe and wait, the screen model behind snapshot, the Terminals page) and rewrites the
 * stream of its run:
 * - the shell's display of the typed line is held until the start marker comes, then passed on as
 *   the command alone and a line end; bytes before it (a prompt drawn late) pass unchanged, and so
 *   do the colours and modes the line editor set meanwhile (state sequences), after the command;
 * - the start and end markers are removed; the bytes between them are the command's output, handed
 *   to the run, and the exit status after the end marker ends it.
 * Nothing else is changed. A run that ends without its start marker (a timeout, Ctrl-C before the
 * line ran) detaches: what was held passes on as it came, and its markers, should they still come,
 * are removed. The echo is recognised by the typed line's beginning, nonce included (typed-echo.ts),
 * so output of the command itself is never taken for it.
 */
import type { RunLine } from './run-markers';
import { terminalText } from './terminal-text';
import { coloursBefore, findTyped, markerStartAtEnd, stateSequences } from './typed-echo';

export interface FramingEvents {
  /** The start marker came: the command runs, and `onOutput` gets what it prints. */
  onBegin(): void;
  onOutput(bytes: Buffer): void;
  /** The end marker came with the exit status. */
  onEnd(exitCode: number): void;
}

/** More held than this while waiting for the start marker is no echo of one line: it passes as it came. */
const MAX_HELD_ECHO = 256 * 1024;
const EMPTY = Buffer.alloc(0);

type Phase = 'echo' | 'output' | 'done';

export class RunFraming {
  private phase: Phase = 'echo';
  /** The typed line's display (echo phase), or the end of the output that may begin a marker. */
  private held: Buffer = EMPTY;
  private detached = false;
  /** Where the command was shown in what the push that found the start marker returned. */
  shownAt: number | undefined;
  private readonly typed: Buffer;
  private readonly start: Buffer;
  private readonly end: Buffer;
  private readonly shown: Buffer;
  /** The typed line as the line discipline echoes it while the shell is not reading. */
  private readonly echoed: Buffer;

  constructor(
    private readonly markers: Pick<RunLine, 'line' | 'typed' | 'start' | 'end' | 'style'>,
    command: string,
    private readonly events: FramingEvents,
    /** A line shown under the command (a pipe-mode run says where its output went). */
    note?: string,
  ) {
    this.typed = Buffer.from(markers.typed, 'utf8');
    this.start = Buffer.from(markers.start, 'latin1');
    this.end = Buffer.from(markers.end, 'latin1');
    this.shown = Buffer.from(`${command}\r\n${note === undefined ? '' : `${note}\r\n`}`, 'utf8');
    this.echoed = Buffer.from(`${markers.line}\r\n`, 'utf8');
  }

  /** Its end marker was removed: it has nothing left to do. */
  get finished(): boolean {
    return this.phase === 'done';
  }

  /** Whether it holds bytes that may turn out to be framing. */
  get holding(): boolean {
    return this.held.length > 0;
  }

  /** Whether the start marker has come (the command began). */
  get began(): boolean {
    return this.phase !== 'echo';
  }

  /** Takes the next output of the terminal; returns what to pass on. */
  push(chunk: Buffer): Buffer {
    if (this.phase === 'done') return chunk;
    if (this.phase === 'echo') return this.detached ? this.startPassing(chunk) : this.holdEcho(chunk);
    return this.passOutput(chunk);
  }

  /**
   * Nothing came for a while: bytes held because they might begin a marker are passed on (a marker
   * is printed by one printf, so its bytes do not straggle). The typed line's display stays held.
   */
  flushPartial(): Buffer {
    if (this.phase === 'echo' && !this.detached) return EMPTY;
    const out = this.held;
    this.held = EMPTY;
    if (this.phase === 'output' && !this.detached) this.events.onOutput(out);
    return out;
  }

  /** The run is over without its framing complete: pass on what is held, keep removing its markers. */
  detach(): Buffer {
    this.detached = true;
    const out = this.held;
    this.held = EMPTY;
    return out;
  }

  private holdEcho(chunk: Buffer): Buffer {
    const held = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    const s = held.indexOf(this.start);
    if (s >= 0) {
      const after = this.afterStart(held, s);
      if (after < 0) return this.keep(held, 0);
      const region = held.subarray(0, s);
      this.held = EMPTY;
      this.phase = 'output';
      this.events.onBegin();
      return Buffer.concat([...this.showCommand(region), this.passOutput(held.subarray(after))]);
    }
    // Until the start marker comes, what surely comes before the echo passes (a late prompt, and
    // with it a query the screen must answer); from the echo's first byte on, everything is held.
    const typed = findTyped(held, this.typed);
    const echo = typed ? coloursBefore(held, typed.at) : held.length;
    const from = Math.min(echo, held.length - markerStartAtEnd(held, this.start));
    if (held.length - from <= MAX_HELD_ECHO) return this.keep(held, from);
    this.held = EMPTY;
    return this.startPassing(held);
  }

  /**
   * What passes in place of everything the shell showed of the typed line (`region`, up to the
   * start marker): the bytes before it, the command and a line end, the state sequences it left.
   * A line typed while the shell was still busy is echoed first by the line discipline, exactly as
   * typed, then the shell draws its prompt (and its editor shows the line again): that prompt is
   * kept, the two displays of the line are not.
   */
  private showCommand(region: Buffer): Buffer[] {
    const typed = findTyped(region, this.typed);
    if (!typed) {
      this.shownAt = region.length;
      return [region, this.shown];
    }
    const echo = coloursBefore(region, typed.at);
    const before = region.subarray(0, echo);
    const early =
      region.indexOf(this.echoed, typed.at) === typed.at ? region.subarray(typed.at + this.echoed.length) : undefined;
    if (!early) {
      this.shownAt = before.length;
      return [before, this.shown, stateSequences(region.subarray(echo))];
    }
    // An editor's own display ends the same way; what follows tells them apart: the line shown
    // again (an editor), or a prompt without it (a shell without one, dash), or neither.
    const again = findTyped(early, this.typed);
    if (!again && terminalText(early.toString('latin1')).trim() === '') {
      this.shownAt = before.length;
      return [before, this.shown, stateSequences(region.subarray(echo))];
    }
    const prompt = again ? early.subarray(0, coloursBefore(early, again.at)) : early;
    this.shownAt = before.length + prompt.length;
    return [before, prompt, this.shown, again ? stateSequences(early.subarray(prompt.length)) : EMPTY];
  }

  /** Detached before the start marker: pass everything, minus the markers should they come. */
  private startPassing(chunk: Buffer): Buffer {
    this.detached = true;
    const data = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = EMPTY;
    const s = data.indexOf(this.start);
    if (s < 0) return this.keep(data, data.length - markerStartAtEnd(data, this.start));
    const after = this.afterStart(data, s);
    if (after < 0) return this.keep(data, s);
    this.phase = 'output';
    return Buffer.concat([data.subarray(0, s), this.passOutput(data.subarray(after))]);
  }

  /** Where the output begins after a start marker at `s`, or -1 while its line end has yet to come. */
  private afterStart(data: Buffer, s: number): number {
    const after = s + this.start.length;
    if (this.markers.style === 'osc') return after;
    const nl = data.indexOf(0x0a, after);
    if (nl >= 0) return nl + 1;
    return data.length - after > 2 ? after : -1;
  }

  private passOutput(chunk: Buffer): Buffer {
    const data = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = EMPTY;
    const at = data.indexOf(this.end);
    if (at < 0) return this.output(this.keep(data, data.length - markerStartAtEnd(data, this.end)));
    const status = this.exitStatus(data, at + this.end.length);
    if (status === 'wait') return this.output(this.keep(data, at));
    if (status === 'no') {
      // Not this marker after all (the command printed its beginning): pass it and look on.
      const upTo = at + this.end.length;
      return Buffer.concat([this.output(data.subarray(0, upTo)), this.passOutput(data.subarray(upTo))]);
    }
    const before = this.output(data.subarray(0, at));
    this.phase = 'done';
    if (!this.detached) this.events.onEnd(status.code);
    return Buffer.concat([before, data.subarray(status.next)]);
  }

  private output(bytes: Buffer): Buffer {
    if (!this.detached && bytes.length > 0) this.events.onOutput(bytes);
    return bytes;
  }

  /** The exit status after an end marker: its digits and terminator (BEL, or the line end for text). */
  private exitStatus(data: Buffer, from: number): { code: number; next: number } | 'wait' | 'no' {
    let i = from;
    while (i < data.length && data[i]! >= 0x30 && data[i]! <= 0x39 && i - from < 4) i++;
    if (i === data.length) return 'wait';
    if (i === from) return 'no';
    const code = Number(data.subarray(from, i).toString('latin1'));
    if (this.markers.style === 'osc') return data[i] === 0x07 ? { code, next: i + 1 } : 'no';
    if (data[i] === 0x0a) return { code, next: i + 1 };
    if (data[i] !== 0x0d) return 'no';
    if (i + 1 === data.length) return 'wait';
    return data[i + 1] === 0x0a ? { code, next: i + 2 } : { code, next: i + 1 };
  }

  /** Holds `data` from `from` on and returns what comes before. */
  private keep(data: Buffer, from: number): Buffer {
    // A copy, so a small held piece does not pin the large chunk it came in.
    this.held = from < data.length ? Buffer.from(data.subarray(from)) : EMPTY;
    return from > 0 ? data.subarray(0, from) : EMPTY;
  }
}
