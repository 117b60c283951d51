/**
 * What a terminal needs from its backend: a running program behind a PTY that takes bytes, gives
 * bytes, follows window size changes, takes signals and can be ended with everything it started.
 */

import type { OutputDir } from './output-dir';

export type TerminalSignal = 'INT' | 'TERM' | 'KILL' | 'HUP' | 'QUIT' | 'TSTP';
export const TERMINAL_SIGNALS: readonly TerminalSignal[] = ['INT', 'TERM', 'KILL', 'HUP', 'QUIT', 'TSTP'];

export type BackendKind = 'sandbox' | 'host' | 'device';

/** Who reads the keyboard now: the terminal's shell at its prompt, another program, or unknowable (a phone). */
export type Foreground = { kind: 'shell'; name: string } | { kind: 'program'; name: string } | { kind: 'unknown' };

export interface ProcessExit {
  exitCode: number | null;
  signal?: string;
}

export interface TerminalProcess {
  /** Where the program runs, for people: "bubblewrap, rootfs debian-bookworm", "adb 127.0.0.1:5555", "/bin/bash". */
  readonly describe: string;
  /** The folder for pipe-mode runs' FIFOs; absent where the host cannot read a pipe the shell writes (a phone). */
  readonly outputDir?: OutputDir;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** Delivers a signal to the foreground program (INT, QUIT and TSTP as the terminal's keys do). */
  signal(sig: TerminalSignal): void;
  foreground(): Foreground;
  /**
   * Whether the program in front sleeps reading its terminal (a shell waiting at its prompt), or
   * undefined where the backend cannot tell (a phone).
   */
  readingInput?(): boolean | undefined;
  onData(listener: (data: Buffer) => void): void;
  onExit(listener: (exit: ProcessExit) => void): void;
  /** Ends the program and every process it started; resolves when they are gone. */
  end(): Promise<void>;
}

export interface SpawnRequest {
  /** Unique per terminal; processes carry it in TOOLGATE_TERMINAL so none is missed when ending. */
  marker: string;
  cols: number;
  rows: number;
  /** Host folder: the sandbox mounts it at /workspace, the host shell starts in it. */
  workspace: string;
}
