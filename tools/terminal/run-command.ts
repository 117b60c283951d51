/**
 * terminal.run's mechanics, once the command may run: the line is typed at the prompt between the
 * markers (run-markers.ts), its output streamed as progress, and the run ends at its end marker,
 * when the terminal exits, when it was interrupted (Ctrl-C can make a shell drop the rest of the
 * line, end marker included), at the timeout (the command is left running and the answer says so),
 * or when the caller cancels (then it is interrupted with Ctrl-C, as a person would).
 */
import { randomBytes } from 'node:crypto';
import { RUN_OUTPUT_LIMIT } from './limits';
import { type MarkerStyle, RunCapture, buildRunLine } from './run-markers';
import type { Terminal } from './terminal';
import { terminalText } from './terminal-text';

export type RunEnd = 'exit-status' | 'terminal-exited' | 'interrupted' | 'timeout' | 'cancelled';

export interface RunResult {
  output: string;
  exitCode: number | null;
  ended: RunEnd;
  truncated: boolean;
  /** Bytes the command printed in all. */
  bytes: number;
  durationMs: number;
}

export interface RunOptions {
  timeoutMs: number;
  callId: string;
  signal: AbortSignal;
  onProgress?: (bytes: number, text: string) => void;
  /** Clear a half-typed line first (Ctrl-U); off where the line editor does not know it. */
  clearLine: boolean;
  style: MarkerStyle;
}

/** How long a run waits for its end marker after a Ctrl-C before it calls itself interrupted. */
const INTERRUPT_GRACE_MS = 1000;
const PROGRESS_EVERY_MS = 200;
const PROGRESS_CHARS = 8192;
/** A marker caught in a progress chunk is not the command's output. */
const MARKER_TEXT = /__tg_[SE]_[0-9a-f]*(?:_\d*)?/g;

function clean(output: Buffer): string {
  return terminalText(output.toString('utf8')).replace(/\n$/, '');
}

export async function runInTerminal(t: Terminal, command: string, opts: RunOptions): Promise<RunResult> {
  await t.readyForLine();
  const started = Date.now();
  const markers = buildRunLine(command, randomBytes(6).toString('hex'), opts.style);
  const capture = new RunCapture(markers, RUN_OUTPUT_LIMIT);
  const run = t.beginRun(opts.callId);
  return new Promise<RunResult>((resolve) => {
    const disposers: Array<{ dispose(): void }> = [];
    let pendingProgress = '';
    let lastProgress = 0;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const finish = (ended: RunEnd, exitCode: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      clearTimeout(graceTimer);
      for (const d of disposers) d.dispose();
      opts.signal.removeEventListener('abort', onAbort);
      const result = capture.result;
      const out = result ?? { ...capture.partial(), exitCode: null };
      t.endRun(run, exitCode);
      resolve({
        output: clean(out.output),
        exitCode,
        ended,
        truncated: out.truncated,
        bytes: out.bytes,
        durationMs: Date.now() - started,
      });
    };
    disposers.push(
      t.onOutput((chunk) => {
        const before = capture.began;
        const done = capture.push(chunk);
        if (done) return finish('exit-status', done.exitCode);
        if (!opts.onProgress || !capture.began) return;
        // Only the newest text is ever shown as progress; holding more would grow with the output.
        if (before) pendingProgress = (pendingProgress + chunk.toString('latin1')).slice(-PROGRESS_CHARS);
        const now = Date.now();
        if (now - lastProgress >= PROGRESS_EVERY_MS && pendingProgress) {
          lastProgress = now;
          const text = Buffer.from(pendingProgress, 'latin1').toString('utf8');
          opts.onProgress(capture.bytes, terminalText(text).replace(MARKER_TEXT, '').slice(-4096));
          pendingProgress = '';
        }
      }),
      t.onExit(() => finish('terminal-exited', null)),
      t.onInterrupt(() => {
        clearTimeout(graceTimer);
        graceTimer = setTimeout(() => finish('interrupted', null), INTERRUPT_GRACE_MS);
      }),
    );
    const timeout = setTimeout(() => finish('timeout', null), opts.timeoutMs);
    const onAbort = () => {
      if (settled) return;
      t.signal('INT');
      finish('cancelled', null);
    };
    if (opts.signal.aborted) return onAbort();
    opts.signal.addEventListener('abort', onAbort, { once: true });
    if (t.state === 'exited') return finish('terminal-exited', null);
    // A line editor that asked for bracketed paste (bash's readline) takes the line in one piece
    // instead of echoing and redrawing it key by key.
    const line = t.screen.bracketedPaste ? `\x1b[200~${markers.line}\x1b[201~` : markers.line;
    t.write(`${opts.clearLine ? '\x15' : ''}${line}\r`);
  });
}
