/**
 * One open terminal: the program behind its PTY, the output log (observe, wait, a new viewer's
 * replay), the screen model (snapshot), and what the UI shows: backend, owner, who opened it,
 * state, who types (the agent, or the person after "take control"), and the agent's runs. The
 * PTY's output reaches the log, the screen and the viewers through the framings of the runs
 * (run-framing.ts), so all of them see an agent's command as the command alone, never its markers.
 */
import { type Disposable, Emitter } from '../core/disposable';
import type { OutputDir } from './backends/output-dir';
import type { BackendKind, Foreground, ProcessExit, TerminalProcess, TerminalSignal } from './backends/types';
import type { TerminalLimits } from './limits';
import { OutputLog } from './output-log';
import type { OutputPipe } from './output-pipe';
import type { RunFraming } from './run-framing';
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
  /** The command as the agent gave it: what the terminal shows in place of the typed line. */
  command: string;
  startedAt: number;
  /** Output offset where the run's command shows: the UI marks the scrollback there. */
  offset: number;
  endedAt?: number;
  exitCode?: number | null;
}

export type Controller = 'agent' | 'person';

const RUNS_KEPT = 50;
const CURSOR_QUERY = Buffer.from('\x1b[6n', 'latin1');
const NOTHING = Buffer.alloc(0);
/** How long bytes held as a possible marker start wait for the rest before they pass as they are. */
const FLUSH_MS = 20;
/** How long the display of a typed line is held waiting for the start marker before it passes as it came. */
const ECHO_HOLD_MS = 2000;
/** Framings of ended runs kept to remove markers that come late (a command that outlived its run). */
const FRAMINGS_KEPT = 8;

interface ActiveFraming {
  framing: RunFraming;
  run: RunRecord;
  since: number;
}

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
  /** The program asks its terminal where the cursor is (busybox's line editor does, at each prompt). */
  private asksCursor = false;
  /** Cursor questions not answered yet. */
  private cursorQueries = 0;
  /** Cursor questions in all, and how many had come when the last run ended. */
  private queriesSeen = 0;
  private queriesAtRunEnd = 0;
  private queryCarry: Buffer = NOTHING;
  private framings: ActiveFraming[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private wakers: Array<() => void> = [];
  /** Pipes of ended pipe-mode runs still held by a process they started: read on to the screen. */
  private readonly piped = new Set<OutputPipe>();

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
      this.wake();
    });
    process.onData((data) => this.take(data));
    process.onExit((exit) => {
      this.exitInfo = exit;
      this.exits.emit(exit);
      this.changes.emit();
    });
  }

  /** The PTY's output: through the runs' framings, then to the log, the screen and the listeners. */
  private take(raw: Buffer): void {
    const last = this.framings[this.framings.length - 1];
    const showing = last && !last.framing.began ? last : undefined;
    const data = this.frame(raw, 0);
    // The line where the run's command shows is where the UI marks it.
    if (showing?.framing.began && showing.framing.shownAt !== undefined)
      showing.run.offset = this.log.end + showing.framing.shownAt;
    this.pass(data);
    // Counted after the framing, so a question right after a run's end marker counts as after the run.
    this.countQueries(raw);
    if (this.framings.some((f) => f.framing.finished)) this.framings = this.framings.filter((f) => !f.framing.finished);
    this.scheduleFlush();
    this.wake();
  }

  /** Lets a readyForLine look again (output came, or the screen answered a question). */
  private wake(): void {
    if (this.wakers.length > 0) for (const wake of this.wakers.splice(0)) wake();
  }

  private frame(data: Buffer, from: number): Buffer {
    let out = data;
    for (let i = from; i < this.framings.length && out.length > 0; i++) out = this.framings[i]!.framing.push(out);
    return out;
  }

  private pass(data: Buffer): void {
    if (data.length === 0) return;
    this.log.append(data);
    this.screen.write(data);
    this.lastActivity = this.now();
    this.output.emit(data);
  }

  private countQueries(raw: Buffer): void {
    const edge = this.queryCarry.length > 0 ? Buffer.concat([this.queryCarry, raw.subarray(0, 3)]) : undefined;
    let n = edge?.includes(CURSOR_QUERY) ? 1 : 0;
    for (let i = raw.indexOf(CURSOR_QUERY); i >= 0; i = raw.indexOf(CURSOR_QUERY, i + 1)) n++;
    // A question cut between two reads: its ESC is among the last three bytes.
    const esc = raw.indexOf(0x1b, Math.max(0, raw.length - 3));
    this.queryCarry = esc >= 0 ? Buffer.from(raw.subarray(esc)) : NOTHING;
    if (n === 0) return;
    this.asksCursor = true;
    this.cursorQueries += n;
    this.queriesSeen += n;
  }

  /** Schedules passing on what the framings hold for too long. */
  private scheduleFlush(): void {
    if (this.flushTimer || !this.framings.some((f) => f.framing.holding)) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      const now = this.now();
      for (let i = 0; i < this.framings.length; i++) {
        const f = this.framings[i]!;
        const out = !f.framing.began && now - f.since > ECHO_HOLD_MS ? f.framing.detach() : f.framing.flushPartial();
        if (out.length > 0) this.pass(this.frame(out, i + 1));
      }
      this.scheduleFlush();
    }, FLUSH_MS);
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

  /** The folder for pipe-mode runs' FIFOs, where the backend has one. */
  get pipeDir(): OutputDir | undefined {
    return this.process.outputDir;
  }

  foreground(): Foreground {
    return this.exitInfo ? { kind: 'unknown' } : this.process.foreground();
  }

  /**
   * Resolves when a line typed now reaches the shell's line editor at its prompt (at most `maxMs`).
   * Typed while the shell still ends the last command or draws its prompt, a line is shown twice
   * (the line discipline echoes it as it comes, then the editor shows it again) and costs the shell
   * twice the work; so this waits until the shell sleeps reading its terminal, where the backend can
   * tell. A line editor that asks where the cursor is (busybox's, at each prompt) must get the
   * terminal's answer before the line, or it reads the line as a broken answer: after a run this
   * waits for the new prompt's question and its answer.
   */
  async readyForLine(maxMs = 200): Promise<void> {
    const deadline = Date.now() + maxMs;
    for (;;) {
      const asked = !this.asksCursor || (this.queriesSeen > this.queriesAtRunEnd && this.cursorQueries === 0);
      if (asked && this.process.readingInput?.() !== false) return;
      if (this.exitInfo || Date.now() >= deadline) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 1);
        this.wakers.push(done);
        function done() {
          clearTimeout(timer);
          resolve();
        }
      });
    }
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

  /** A run begins: its line is about to be typed, and `framing` rewrites what the shell shows of it. */
  beginRun(callId: string, command: string, framing: RunFraming): RunRecord {
    const run: RunRecord = { callId, command, startedAt: this.now(), offset: this.log.end };
    this.running = run;
    this.runs.push(run);
    if (this.runs.length > RUNS_KEPT) this.runs.shift();
    while (this.framings.length >= FRAMINGS_KEPT) {
      const oldest = this.framings.shift()!;
      this.pass(this.frame(oldest.framing.detach(), 0));
    }
    this.framings.push({ framing, run, since: this.now() });
    this.changes.emit();
    return run;
  }

  /** The run is over; a framing still incomplete passes on what it held and keeps removing its markers. */
  endRun(run: RunRecord, exitCode: number | null): void {
    run.endedAt = this.now();
    run.exitCode = exitCode;
    if (this.running === run) this.running = undefined;
    this.queriesAtRunEnd = this.queriesSeen;
    const i = this.framings.findIndex((f) => f.run === run);
    if (i >= 0 && !this.framings[i]!.framing.finished) this.pass(this.frame(this.framings[i]!.framing.detach(), i + 1));
    this.scheduleFlush();
    this.changes.emit();
  }

  /**
   * A pipe-mode run ended while a process it started still holds its pipe: what comes through it
   * from now on is shown as the terminal's own output (line ends as a PTY would show them), so
   * observe and wait read it, until the last writer closes it or the terminal closes.
   */
  showPiped(pipe: OutputPipe): void {
    if (this.exitInfo) return pipe.close();
    this.piped.add(pipe);
    pipe.onData((bytes) => this.pass(Buffer.from(bytes.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1')));
    void pipe.whenEnded().then(() => this.piped.delete(pipe));
  }

  setController(who: Controller): void {
    this.controller = who;
    this.changes.emit();
  }

  /** Ends the program and everything it started; the screen model is released. */
  close(): Promise<void> {
    this.ending ??= (async () => {
      await this.process.end().catch(() => undefined);
      for (const pipe of this.piped) pipe.close();
      clearTimeout(this.flushTimer);
      this.screen.dispose();
    })();
    return this.ending;
  }
}
