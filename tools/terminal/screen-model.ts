/**
 * The screen as a person sees it, kept by @xterm/headless (the parser and buffer of xterm.js, with
 * no renderer): the text grid, the cursor, which buffer is shown (full-screen programs such as top,
 * vi and less switch to the alternate one) and the cursor-key mode. Output is parsed in the
 * background; when a program writes faster than the parser keeps up, bytes beyond a bounded backlog
 * are skipped and the snapshot says so, so a flood of output never holds host memory.
 */
import { Terminal } from '@xterm/headless';

/** Bytes waiting for the parser beyond which new output is skipped. */
const MAX_BACKLOG = 1024 * 1024;

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
  private backlog = 0;
  private skipped = 0;
  private title: string | undefined;

  constructor(cols: number, rows: number, scrollback: number) {
    this.term = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
    this.term.onTitleChange((t) => {
      this.title = t;
    });
  }

  write(data: Buffer): void {
    if (this.backlog + data.length > MAX_BACKLOG) {
      this.skipped += data.length;
      return;
    }
    this.backlog += data.length;
    this.term.write(new Uint8Array(data.buffer, data.byteOffset, data.length), () => {
      this.backlog -= data.length;
    });
  }

  resize(cols: number, rows: number): void {
    this.term.resize(cols, rows);
  }

  get applicationCursor(): boolean {
    return this.term.modes.applicationCursorKeysMode;
  }

  /** Resolves once everything written so far is parsed. */
  settled(): Promise<void> {
    return new Promise((resolve) => this.term.write('', resolve));
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
    this.term.dispose();
  }
}
