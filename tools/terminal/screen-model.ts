/**
 * The screen as a person sees it, kept by @xterm/headless (the parser and buffer of xterm.js, with
 * no renderer): the text grid, the cursor, which buffer is shown (full-screen programs such as vi
 * and less switch to the alternate one) and the cursor-key mode. It answers the queries a program
 * sends its terminal (cursor position, device attributes), as a terminal does: busybox's line
 * editor, for one, waits for the cursor position before it draws.
 *
 * Parsing costs far more than reading (each line of a flood scrolls the whole screen), so output is
 * parsed at once while little comes (an echo, a prompt, a question to answer), and in batches every
 * 25 ms while more than 32 KB comes in that time.
 * Plain text that scrolls out of the screen and its scrollback under later lines is not parsed at
 * all, which leaves the screen exactly as parsing it would (unseen-output.ts). Past that, at most
 * 64 KB of a batch is parsed, the newest; what a flood of escape sequences writes beyond that is
 * skipped (counted, and the snapshot says so). A snapshot parses whatever is still waiting first.
 * So a program writing gigabytes neither holds host memory nor starves the terminal's own reading,
 * and what it shows at the end is what it wrote last.
 */
import { Terminal } from '@xterm/headless';
import { MAX_ROWS } from './limits';
import { UnseenOutput } from './unseen-output';

const SLICE_BYTES = 64 * 1024;
const SLICE_EVERY_MS = 25;
const FLOOD_BYTES = 32 * 1024;
const PIECE_BYTES = 8 * 1024;

export interface ScreenSnapshot {
  cols: number;
  rows: number;
  /** The visible rows, top to bottom, trailing blanks trimmed. */
  lines: string[];
  cursor: { x: number; y: number };
  /** `alternate` while a full-screen program shows its own screen. */
  buffer: 'normal' | 'alternate';
  /** The window title a program set (OSC 0/2), if any. */
  title?: string;
  /** Output was skipped because it came faster than the screen could follow: rows may be stale. */
  skippedBytes: number;
}

export class ScreenModel {
  private readonly term: Terminal;
  private waiting: Buffer[] = [];
  private waitingBytes = 0;
  private cancelSlice: (() => void) | undefined;
  /** Bytes written since `recentSince`: past FLOOD_BYTES within one period, output is a flood. */
  private recentBytes = 0;
  private recentSince = 0;
  private earlierBytes = 0;
  private parsing: Promise<void> = Promise.resolve();
  private readonly unseen: UnseenOutput;
  private skipped = 0;
  private title: string | undefined;
  private disposed = false;

  constructor(cols: number, rows: number, scrollback: number, reply?: (data: string) => void) {
    this.term = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
    // Only the scrollback a snapshot can come to show counts: a resize brings at most MAX_ROWS rows,
    // of as many lines at most, into view.
    this.unseen = new UnseenOutput(() => ({ rows: this.term.rows, scrollback: Math.min(scrollback, MAX_ROWS) }));
    this.term.onTitleChange((t) => {
      this.title = t;
    });
    if (reply) this.term.onData(reply);
  }

  write(data: Buffer): void {
    if (this.disposed || data.length === 0) return;
    this.waiting.push(data);
    this.waitingBytes += data.length;
    const now = Date.now();
    if (now - this.recentSince > SLICE_EVERY_MS) {
      // The period before counts too, so a flood stays one from one period to the next.
      this.earlierBytes = now - this.recentSince > 2 * SLICE_EVERY_MS ? 0 : this.recentBytes;
      this.recentSince = now;
      this.recentBytes = 0;
    }
    this.recentBytes += data.length;
    // A prompt, an echo, a question to answer: parsed at once. A flood: in batches.
    const flood = this.recentBytes > FLOOD_BYTES || this.earlierBytes > FLOOD_BYTES;
    if (!this.cancelSlice) this.schedule(flood ? SLICE_EVERY_MS : 0);
  }

  private schedule(delayMs: number): void {
    if (delayMs === 0) {
      const immediate = setImmediate(() => this.slice());
      this.cancelSlice = () => clearImmediate(immediate);
    } else {
      const timer = setTimeout(() => this.slice(), delayMs);
      this.cancelSlice = () => clearTimeout(timer);
    }
  }

  /** Parses what waits, less the plain text that scrolls away unseen, keeping the newest SLICE_BYTES when more came. */
  private slice(): void {
    this.cancelSlice = undefined;
    if (this.disposed || this.waitingBytes === 0) return;
    let data = this.waiting.length === 1 ? this.waiting[0]! : Buffer.concat(this.waiting);
    this.waiting = [];
    this.waitingBytes = 0;
    const unseen = this.unseen.unseen(data);
    if (unseen) data = Buffer.concat([data.subarray(0, unseen.from), data.subarray(unseen.to)]);
    if (data.length > SLICE_BYTES) {
      this.skipped += data.length - SLICE_BYTES;
      data = data.subarray(data.length - SLICE_BYTES);
    }
    this.unseen.parsed(data);
    // In pieces, with a turn of the event loop between them, so the PTY is read while the screen parses.
    for (let at = 0; at < data.length; at += PIECE_BYTES) {
      const piece = data.subarray(at, Math.min(data.length, at + PIECE_BYTES));
      this.parsing = this.parsing.then(
        () =>
          new Promise<void>((resolve) => {
            if (this.disposed) return resolve();
            this.term.write(new Uint8Array(piece.buffer, piece.byteOffset, piece.length), () => setImmediate(resolve));
          }),
      );
    }
    void this.parsing.then(() => {
      if (this.waitingBytes > 0 && !this.cancelSlice) this.schedule(SLICE_EVERY_MS);
    });
  }

  resize(cols: number, rows: number): void {
    this.term.resize(cols, rows);
  }

  get applicationCursor(): boolean {
    return this.term.modes.applicationCursorKeysMode;
  }

  /** The program asked for pasted text to be bracketed (ESC [ ? 2004 h): bash's readline at its prompt. */
  get bracketedPaste(): boolean {
    return this.term.modes.bracketedPasteMode;
  }

  /** Resolves once everything written so far is parsed. */
  async settled(): Promise<void> {
    this.cancelSlice?.();
    this.slice();
    await this.parsing;
  }

  async snapshot(): Promise<ScreenSnapshot> {
    await this.settled();
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.term.rows; y++)
      lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return {
      cols: this.term.cols,
      rows: this.term.rows,
      lines,
      cursor: { x: buffer.cursorX, y: buffer.cursorY },
      buffer: buffer.type,
      ...(this.title ? { title: this.title } : {}),
      skippedBytes: this.skipped,
    };
  }

  /** The rows from the cursor's row up to `above` rows before it: the line a prompt is editing. */
  async cursorLines(above = 2): Promise<string> {
    const snap = await this.snapshot();
    return snap.lines
      .slice(Math.max(0, snap.cursor.y - above), snap.cursor.y + 1)
      .join('\n')
      .trim();
  }

  dispose(): void {
    this.disposed = true;
    this.cancelSlice?.();
    this.term.dispose();
  }
}
