/**
 * One open terminal: the program behind its PTY, the output log (observe, wait, a new viewer's
 * replay), the screen model (snapshot), and what the UI shows: backend, owner, who opened it,
 * state, who types (the agent, or the person after "take control"), and the agent's runs.
 */
import { type Disposable, Emitter } from '../core/disposable';
import type { BackendKind, Foreground, ProcessExit, TerminalProcess, TerminalSignal } from './backends/types';
import type { TerminalLimits } from './limits';
import { OutputLog } from './output-log';
import { ScreenModel } from './screen-model';

export interface TerminalInfo {
  id: string;
  title: string;
  /** `sandbox`, `host` or `device:<serial>`. */
  backend: string;
  kind: BackendKind;
  /** The MCP client (its token's name) or `ui` that owns it; only the owner and the person reach it. */
  owner: string;
  /** The program that opened it, as it named itself (`claude-code 1.2`), or the session label. */
  openedBy: string;
  createdAt: number;
  /** Host folder the terminal started in (sandbox: mounted at /workspace). */
  workspace?: string;
  rootfs?: string;
  network?: boolean;
  /** Where the program runs, in words. */
  where: string;
}

export interface RunRecord {
  callId: string;
  startedAt: number;
  /** Output offset where the run's line was typed: the UI marks the scrollback there. */
  offset: number;
  endedAt?: number;
  exitCode?: number | null;
}

export type Controller = 'agent' | 'person';

const RUNS_KEPT = 50;
const CURSOR_QUERY = '\x1b[6n';
const QUIET_BEFORE_LINE_MS = 3;

export class Terminal {
  readonly log: OutputLog;
  readonly screen: ScreenModel;
  cols: number;
  rows: number;
  lastActivity: number;
  /** Where the owner's next observe starts. */
  observeCursor = 0;
  controller: Controller = 'agent';
  running: RunRecord | undefined;
  readonly runs: RunRecord[] = [];
  private exitInfo: ProcessExit | undefined;
  private readonly output = new Emitter<Buffer>();
  private readonly exits = new Emitter<ProcessExit>();
  private readonly changes = new Emitter<void>();
  private readonly interrupts = new Emitter<void>();
  private ending: Promise<void> | undefined;
  private lastOutputAt = 0;
  /** The program asks its terminal where the cursor is (busybox's line editor does, at each prompt). */
  private asksCursor = false;
  private cursorQueries = 0;

  constructor(
    readonly info: TerminalInfo,
    private readonly process: TerminalProcess,
    limits: Pick<TerminalLimits, 'logBytes' | 'scrollbackLines'>,
    cols: number,
    rows: number,
    private readonly now: () => number = Date.now,
  ) {
    this.cols = cols;
    this.rows = rows;
    this.lastActivity = now();
    this.log = new OutputLog(limits.logBytes);
    // The screen answers the program's terminal queries (cursor position, attributes) as a terminal
    // does; none of its answers holds a line end, so an answer never submits a line.
    this.screen = new ScreenModel(cols, rows, limits.scrollbackLines, (reply) => {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the answer is an escape sequence
      if (/\x1b\[\d+;\d+R/.test(reply)) this.cursorQueries = Math.max(0, this.cursorQueries - 1);
      if (!this.exitInfo) this.process.write(reply);
    });
    process.onData((data) => {
      this.lastOutputAt = this.now();
      if (data.includes(CURSOR_QUERY)) {
        this.asksCursor = true;
        this.cursorQueries++;
      }
      this.log.append(data);
      this.screen.write(data);
      this.lastActivity = this.now();
      this.output.emit(data);
    });
    process.onExit((exit) => {
      this.exitInfo = exit;
      this.exits.emit(exit);
      this.changes.emit();
    });
  }

  get exited(): ProcessExit | undefined {
    return this.exitInfo;
  }

  get state(): 'running' | 'exited' {
    return this.exitInfo ? 'exited' : 'running';
  }

  touch(): void {
    this.lastActivity = this.now();
  }

  onOutput(listener: (data: Buffer) => void): Disposable {
    return this.output.on(listener);
  }

  onExit(listener: (exit: ProcessExit) => void): Disposable {
    if (this.exitInfo) {
      listener(this.exitInfo);
      return { dispose() {} };
    }
    return this.exits.on(listener);
  }

  /** Fires when the state, the controller or the runs change (the UI's list). */
  onChange(listener: () => void): Disposable {
    return this.changes.on(listener);
  }

  /** Fires when a key or signal that stops the foreground program is sent (Ctrl-C, Ctrl-\\, Ctrl-Z, a signal). */
  onInterrupt(listener: () => void): Disposable {
    return this.interrupts.on(listener);
  }

  changed(): void {
    this.changes.emit();
  }

  write(text: string): void {
    this.touch();
    this.process.write(text);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the interrupt keys are control characters
    if (/[\x03\x1a\x1c]/.test(text)) this.interrupts.emit();
  }

  resize(cols: number, rows: number): void {
    this.touch();
    this.cols = cols;
    this.rows = rows;
    this.process.resize(cols, rows);
    this.screen.resize(cols, rows);
  }

  signal(sig: TerminalSignal): void {
    this.touch();
    this.process.signal(sig);
    this.interrupts.emit();
  }

  foreground(): Foreground {
    return this.exitInfo ? { kind: 'unknown' } : this.process.foreground();
  }

  /**
   * Resolves when a line typed now reaches the line editor in order. A line editor that asks where
   * the cursor is (busybox's, after each prompt) must get the terminal's answer before the line, or
   * it reads the line as a broken answer and waits; so after such a prompt this waits until the
   * output is quiet and the answer went out (at most `maxMs`). Other shells are never held.
   */
  async readyForLine(maxMs = 100): Promise<void> {
    if (!this.asksCursor) return;
    const deadline = Date.now() + maxMs;
    while (Date.now() < deadline && (this.cursorQueries > 0 || this.now() - this.lastOutputAt < QUIET_BEFORE_LINE_MS))
      await new Promise((r) => setTimeout(r, 1));
  }

  /** Resolves once no output came for `quietMs` (or after `maxMs`): the echo of what was typed has arrived. */
  settle(quietMs = 100, maxMs = 600): Promise<void> {
    return new Promise((resolve) => {
      let quiet = setTimeout(done, quietMs);
      const cap = setTimeout(done, maxMs);
      const sub = this.output.on(() => {
        clearTimeout(quiet);
        quiet = setTimeout(done, quietMs);
      });
      function done() {
        clearTimeout(quiet);
        clearTimeout(cap);
        sub.dispose();
        resolve();
      }
    });
  }

  beginRun(callId: string): RunRecord {
    const run: RunRecord = { callId, startedAt: this.now(), offset: this.log.end };
    this.running = run;
    this.runs.push(run);
    if (this.runs.length > RUNS_KEPT) this.runs.shift();
    this.changes.emit();
    return run;
  }

  endRun(run: RunRecord, exitCode: number | null): void {
    run.endedAt = this.now();
    run.exitCode = exitCode;
    if (this.running === run) this.running = undefined;
    this.changes.emit();
  }

  setController(who: Controller): void {
    this.controller = who;
    this.changes.emit();
  }

  /** Ends the program and everything it started; the screen model is released. */
  close(): Promise<void> {
    this.ending ??= (async () => {
      await this.process.end().catch(() => undefined);
      this.screen.dispose();
    })();
    return this.ending;
  }
}
