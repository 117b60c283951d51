/**
 * terminal.run's mechanics, once the command may run: the line is typed at the prompt between the
 * markers (run-markers.ts), the run's framing shows it as the command alone and hands over its
 * output (run-framing.ts), streamed as progress, and the run ends at its end marker, when the
 * terminal exits, when it was interrupted (Ctrl-C can make a shell drop the rest of the line, end
 * marker included), at the timeout (the command is left running and the answer says so), or when
 * the caller cancels (then it is interrupted with Ctrl-C, as a person would).
 */
import { randomBytes } from 'node:crypto';
import { RUN_OUTPUT_LIMIT } from './limits';
import { OutputTail } from './output-tail';
import { RunFraming } from './run-framing';
import { type MarkerStyle, buildRunLine } from './run-markers';
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
const PROGRESS_BYTES = 8192;

function clean(output: Buffer): string {
  return terminalText(output.toString('utf8')).replace(/\n$/, '');
}

export async function runInTerminal(t: Terminal, command: string, opts: RunOptions): Promise<RunResult> {
  await t.readyForLine();
  const started = Date.now();
  const markers = buildRunLine(command, randomBytes(6).toString('hex'), opts.style);
  const tail = new OutputTail(RUN_OUTPUT_LIMIT);
  return new Promise<RunResult>((resolve) => {
    const disposers: Array<{ dispose(): void }> = [];
    let lastProgress = 0;
    let progressTimer: ReturnType<typeof setTimeout> | undefined;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const progress = () => {
      progressTimer = undefined;
      lastProgress = Date.now();
      // The newest text only; a cut UTF-8 character at the front shows as one replacement mark at most.
      opts.onProgress?.(tail.bytes, terminalText(tail.last(PROGRESS_BYTES).toString('utf8')).slice(-4096));
    };
    const finish = (ended: RunEnd, exitCode: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      clearTimeout(graceTimer);
      clearTimeout(progressTimer);
      for (const d of disposers) d.dispose();
      opts.signal.removeEventListener('abort', onAbort);
      t.endRun(run, exitCode);
      const output = tail.last();
      resolve({
        output: clean(output),
        exitCode,
        ended,
        truncated: tail.bytes > output.length,
        bytes: tail.bytes,
        durationMs: Date.now() - started,
      });
    };
    const framing = new RunFraming(markers, command, {
      onBegin: () => undefined,
      onOutput: (bytes) => {
        tail.push(bytes);
        // Progress at most every 200 ms, from a timer, so a flood costs one text a period, not one a read.
        if (opts.onProgress && !progressTimer)
          progressTimer = setTimeout(progress, Math.max(0, PROGRESS_EVERY_MS - (Date.now() - lastProgress)));
      },
      onEnd: (code) => finish('exit-status', code),
    });
    const run = t.beginRun(opts.callId, command, framing);
    disposers.push(
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
    // Typed as keys: a line editor takes typed-ahead keys in one go. A tab would complete rather
    // than insert, so a line with one goes as a bracketed paste where the editor asked for those.
    const line = command.includes('\t') && t.screen.bracketedPaste ? `\x1b[200~${markers.line}\x1b[201~` : markers.line;
    t.write(`${opts.clearLine ? '\x15' : ''}${line}\r`);
  });
}
