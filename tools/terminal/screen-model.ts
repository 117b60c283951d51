/**
 * The screen as a person sees it, kept by @xterm/headless (the parser and buffer of xterm.js, with
 * no renderer): the text grid, the cursor, which buffer is shown (full-screen programs such as vi
 * and less switch to the alternate one) and the cursor-key mode. It answers the queries a program
 * sends its terminal (cursor position, device attributes), as a terminal does: busybox's line
 * editor, for one, waits for the cursor position before it draws.
 *
 * Parsing costs far more than reading, so output is parsed in bounded slices: at most 64 KB every
 * 25 ms while output keeps coming, the newest bytes first kept; what a flood writes beyond that is
 * skipped (counted, and the snapshot says so). A snapshot parses whatever is still waiting first.
 * So a program writing gigabytes neither holds host memory nor starves the terminal's own reading,
 * and what it shows at the end is what it wrote last.
 */
import { Terminal } from '@xterm/headless';

const SLICE_BYTES = 64 * 1024;
const SLICE_EVERY_MS = 25;

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
  private timer: ReturnType<typeof setTimeout> | undefined;
  private parsing: Promise<void> = Promise.resolve();
  private skipped = 0;
  private title: string | undefined;
  private disposed = false;

  constructor(cols: number, rows: number, scrollback: number, reply?: (data: string) => void) {
    this.term = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
    this.term.onTitleChange((t) => {
      this.title = t;
    });
    if (reply) this.term.onData(reply);
  }

  write(data: Buffer): void {
    if (this.disposed || data.length === 0) return;
    this.waiting.push(data);
    this.waitingBytes += data.length;
    this.timer ??= setTimeout(() => this.slice(), this.waitingBytes > SLICE_BYTES ? SLICE_EVERY_MS : 0);
  }

  /** Parses what waits, keeping the newest SLICE_BYTES when more came. */
  private slice(): void {
    this.timer = undefined;
    if (this.disposed || this.waitingBytes === 0) return;
    let data = Buffer.concat(this.waiting);
    this.waiting = [];
    this.waitingBytes = 0;
    if (data.length > SLICE_BYTES) {
      this.skipped += data.length - SLICE_BYTES;
      data = data.subarray(data.length - SLICE_BYTES);
    }
    this.parsing = this.parsing.then(
      () =>
        new Promise<void>((resolve) => {
          if (this.disposed) return resolve();
          this.term.write(new Uint8Array(data.buffer, data.byteOffset, data.length), resolve);
        }),
    );
    void this.parsing.then(() => {
      if (this.waitingBytes > 0) this.timer ??= setTimeout(() => this.slice(), SLICE_EVERY_MS);
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
    clearTimeout(this.timer);
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
    clearTimeout(this.timer);
    this.term.dispose();
  }
}
