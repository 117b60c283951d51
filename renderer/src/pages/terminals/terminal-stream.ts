/**
 * Keeps a viewer's copy of a terminal's output contiguous. The host streams output as
 * `terminal-output` events carrying byte offsets; a viewer starts from a replay (terminalScreen)
 * and then takes each event that continues where it stands, trims one that overlaps, and asks for a
 * new replay when one leaves a gap (a flood the host skipped, events missed while reconnecting).
 */

export type StreamStep = { kind: 'write'; text: string; to: number } | { kind: 'skip' } | { kind: 'resync' };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What to do with output covering bytes [from, to) when the viewer has everything before `at`. */
export function nextStep(at: number, from: number, to: number, text: string): StreamStep {
  if (to <= at) return { kind: 'skip' };
  if (from > at) return { kind: 'resync' };
  if (from === at) return { kind: 'write', text, to };
  const bytes = encoder.encode(text);
  return { kind: 'write', text: decoder.decode(bytes.subarray(at - from)), to };
}

/** The byte offsets in [from, to) at which a run's line was typed, so the scrollback can mark them. */
export function runsWithin(offsets: readonly number[], from: number, to: number): number[] {
  return offsets.filter((o) => o >= from && o < to).sort((a, b) => a - b);
}

export interface Piece {
  text: string;
  /** A run's line starts right after this piece: mark the line the cursor is on then. */
  markAfter?: number;
}

/** Cuts output starting at byte `from` at the runs' offsets, so each run's line can be marked where it starts. */
export function cutAtRuns(text: string, from: number, offsets: readonly number[]): Piece[] {
  const bytes = encoder.encode(text);
  const inside = runsWithin(offsets, from, from + bytes.length);
  const pieces: Piece[] = [];
  let start = 0;
  for (const offset of inside) {
    pieces.push({ text: decoder.decode(bytes.subarray(start, offset - from)), markAfter: offset });
    start = offset - from;
  }
  pieces.push({ text: decoder.decode(bytes.subarray(start)) });
  return pieces;
}

/**
 * Whether xterm.js produced `data` as its own answer to a query in the output (cursor position,
 * device attributes, a colour report) rather than from a key. The host's screen model already
 * answers the program; a second answer from the page would arrive as typed text.
 */
export function isTerminalReply(data: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal replies are escape sequences
  return /^\x1b\[[?>]?[\d;]*[Rcn]$|^\x1b\][\d;]+[^\x07\x1b]*(?:\x07|\x1b\\)$|^\x1bP[\s\S]*\x1b\\$/.test(data);
}

/** Output as the viewer gets it: an event's bytes [from, to), or a replay's whole screen. */
export interface StreamOutput {
  data: string;
  from: number;
  to: number;
  runs: ReadonlyArray<{ offset: number; callId: string }>;
}

export interface ViewerIo {
  /** The terminal's scrollback and screen as the host has it now (terminalScreen). */
  fetch(): Promise<StreamOutput>;
  /** Clears the view before a replay is written. */
  reset(): void;
  write(text: string, from: number, runs: StreamOutput['runs']): void;
  /** False once the view is gone: a replay that answers later writes nothing. */
  alive(): boolean;
}

/**
 * One viewer's position in a terminal's output. Output that arrives while a replay is on its way
 * is held and taken after it (trimmed or skipped where the replay already covers it), so output
 * streamed during a replay is never lost, even when nothing follows it to reveal the gap.
 */
export class ViewerStream {
  private at = 0;
  private replaying = false;
  private held: StreamOutput[] = [];

  constructor(private readonly io: ViewerIo) {}

  async replay(): Promise<void> {
    if (this.replaying) return;
    this.replaying = true;
    let screen: StreamOutput;
    try {
      screen = await this.io.fetch();
    } catch {
      this.replaying = false;
      return;
    }
    if (!this.io.alive()) return;
    this.io.reset();
    this.io.write(screen.data, screen.from, screen.runs);
    this.at = screen.to;
    this.replaying = false;
    const held = this.held;
    this.held = [];
    for (const output of held) this.take(output);
  }

  take(output: StreamOutput): void {
    if (this.replaying) {
      this.held.push(output);
      return;
    }
    const step = nextStep(this.at, output.from, output.to, output.data);
    // A gap: the host's screen, fetched after this output was sent, holds it.
    if (step.kind === 'resync') void this.replay();
    else if (step.kind === 'write') {
      const from = this.at;
      this.at = step.to;
      this.io.write(step.text, from, output.runs);
    }
  }
}
