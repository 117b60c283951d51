/**
 * The bounds every terminal lives within: how many may be open, how long an unused one stays, how
 * much output each keeps, and how large an answer may grow. A host may tighten or loosen them
 * (tests use short idle times); the defaults are what a desktop needs.
 */
export interface TerminalLimits {
  /** Open terminals per owner (an MCP client token, or the person). */
  maxPerOwner: number;
  /** Open terminals in all. */
  maxTotal: number;
  /** A terminal with no call, input or output for this long is closed. */
  idleMs: number;
  /** Raw output kept per terminal for observe, wait and a new viewer; older bytes are dropped. */
  logBytes: number;
  /** Lines of scrollback the screen model keeps above the visible rows. */
  scrollbackLines: number;
}

export const DEFAULT_LIMITS: TerminalLimits = {
  maxPerOwner: 8,
  maxTotal: 32,
  idleMs: 30 * 60_000,
  logBytes: 1024 * 1024,
  scrollbackLines: 2000,
};

/** Output a run returns; the end is kept when cut. */
export const RUN_OUTPUT_LIMIT = 64 * 1024;
/** Longest command line terminal.run takes, and longest data terminal.write sends. */
export const MAX_COMMAND_CHARS = 8000;
export const MAX_WRITE_CHARS = 16_384;
/** Most text one observe answers with (a caller may ask for less). */
export const MAX_OBSERVE_BYTES = 64 * 1024;
/** Longest time a run or a wait may take. */
export const MAX_WAIT_MS = 600_000;
export const MIN_COLS = 10;
export const MAX_COLS = 500;
export const MIN_ROWS = 4;
export const MAX_ROWS = 200;
