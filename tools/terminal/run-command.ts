/**
 * terminal.run's mechanics, once the command may run: the line is typed at the prompt between the
 * markers (run-markers.ts), the run's framing shows it as the command alone and hands over its
 * output (run-framing.ts), streamed as progress, and the run ends at its end marker, when the
 * terminal exits, when it was interrupted (Ctrl-C can make a shell drop the rest of the line, end
 * marker included), at the timeout (the command is left running and the answer says so), or when
 * the caller cancels (then it is interrupted with Ctrl-C, as a person would).
 *
 * In pipe mode the command's output and errors go through a FIFO the host reads (output-pipe.ts)
 * instead of the PTY: the same shell runs it at its prompt (its directory and variables stay), the
 * screen shows the command and a note where its output went, and the run ends at its end marker
 * once the pipe is drained. A process the command left in the background that still holds the pipe
 * keeps it: what it writes after the run goes to the terminal's screen and log, so nothing is lost.
 */
import { randomBytes } from 'node:crypto';
import { ToolCallError } from '../core/result';
import { RUN_OUTPUT_LIMIT } from './limits';
import type { OutputDir } from './backends/output-dir';
import { OutputPipe } from './output-pipe';
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
  /** Pipe mode: the most memory the kept output held (bytes of the buffers it pinned). */
  peakHeldBytes?: number;
  /** Pipe mode: a process the command started still held the pipe when the run ended. */
  pipeHeld?: boolean;
  /** The shell had taken the line (its start marker came) before the run ended. */
  began: boolean;
}

export interface RunOptions {
  timeoutMs: number;
  callId: string;
  signal: AbortSignal;
  onProgress?: (bytes: number, text: string) => void;
  /** Clear a half-typed line first (Ctrl-U); off where the line editor does not know it. */
  clearLine: boolean;
  style: MarkerStyle;
  /** Pipe mode: the terminal's folder for the run's FIFO. */
  pipe?: OutputDir;
}

/** The line a pipe-mode run shows under its command, dim, for a person watching. */
export const PIPE_NOTE = "\x1b[2m[its output goes to the agent's run result, not to this screen]\x1b[22m";
/** How long a pipe-mode run waits, after its end marker, for the rest of its output. */
const PIPE_DRAIN_MS = 1000;

/** How long a run waits for its end marker after a Ctrl-C before it calls itself interrupted. */
const INTERRUPT_GRACE_MS = 1000;
const PROGRESS_EVERY_MS = 200;
const PROGRESS_BYTES = 8192;

function clean(output: Buffer): string {
  return terminalText(output.toString('utf8')).replace(/\n$/, '');
}

async function openPipe(dir: OutputDir, nonce: string): Promise<OutputPipe> {
  try {
    return await OutputPipe.open(dir.host, `out-${nonce}`);
  } catch (e) {
    throw new ToolCallError('EXECUTION_FAILED', `The run's output pipe could not be made: ${(e as Error).message}`, {
      hint: 'Run it with output "pty" instead.',
      data: { slug: 'terminal-pipe-failed' },
    });
  }
}

export async function runInTerminal(t: Terminal, command: string, opts: RunOptions): Promise<RunResult> {
  await t.readyForLine();
  const started = Date.now();
  const nonce = randomBytes(6).toString('hex');
  const pipe = opts.pipe ? await openPipe(opts.pipe, nonce) : undefined;
  const markers = buildRunLine(command, nonce, opts.style, opts.pipe ? `${opts.pipe.shell}/out-${nonce}` : undefined);
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
      const pipeHeld = pipe !== undefined && !pipe.ended;
      // The pipe stays, shown in the terminal, while something may still write to it: a process the
      // command started, or the line itself when the shell had not taken it by the timeout (a slow
      // prompt hook): it runs later, and what it prints must not land in a file nobody reads. A line
      // that was cancelled or interrupted before it began was dropped with the Ctrl-C: its pipe is
      // closed (and its FIFO removed).
      const mayStillWrite = framing.began || ended === 'timeout';
      if (pipe && pipeHeld && ended !== 'terminal-exited' && mayStillWrite) t.showPiped(pipe);
      else pipe?.close();
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
        began: framing.began,
        ...(pipe ? { peakHeldBytes: tail.peakHeld, pipeHeld: pipeHeld && framing.began } : {}),
      });
    };
    const take = (bytes: Buffer) => {
      tail.push(bytes, pipe !== undefined);
      // Progress at most every 200 ms, from a timer, so a flood costs one text a period, not one a read.
      if (opts.onProgress && !progressTimer)
        progressTimer = setTimeout(progress, Math.max(0, PROGRESS_EVERY_MS - (Date.now() - lastProgress)));
    };
    pipe?.onData(take);
    const framing = new RunFraming(
      markers,
      command,
      {
        onBegin: () => undefined,
        // In pipe mode what still reaches the PTY (a program writing /dev/tty) stays on the screen alone.
        onOutput: (bytes) => (pipe ? undefined : take(bytes)),
        onEnd: (code) => {
          if (!pipe) return finish('exit-status', code);
          void pipe.whenEnded(PIPE_DRAIN_MS).then(() => finish('exit-status', code));
        },
      },
      pipe ? PIPE_NOTE : undefined,
    );
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
