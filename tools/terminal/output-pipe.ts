/**
 * The pipe a terminal.run in pipe mode sends its command's output through: a FIFO the host makes in
 * the terminal's own private folder (backends/output-dir.ts), opened for reading before the line is
 * typed, so the shell's `>` finds a reader at once. The host reads it through a socket on the
 * descriptor (no thread waits on it), and the kernel carries bytes there untouched: no line
 * discipline turns each line end into two bytes, one character at a time, as a PTY's does.
 *
 * The FIFO is opened without following a symbolic link and must be a FIFO of this user's: a program
 * that could reach the folder (PRoot binds it writable) cannot have the host read another file.
 */
import { execFile } from 'node:child_process';
import { constants, fstatSync, openSync, closeSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export class OutputPipe {
  private sink: ((bytes: Buffer) => void) | undefined;
  private ends: Array<() => void> = [];
  private done = false;

  private constructor(
    private readonly socket: Socket,
    private readonly file: string,
  ) {
    socket.on('data', (bytes: Buffer) => this.sink?.(bytes));
    const end = () => {
      if (this.done) return;
      this.done = true;
      rmSync(this.file, { force: true });
      for (const f of this.ends.splice(0)) f();
    };
    socket.once('end', end);
    socket.once('close', end);
    socket.once('error', () => socket.destroy());
  }

  /** Makes the FIFO `name` in `dir` (the host's path) and opens it for reading. */
  static async open(dir: string, name: string): Promise<OutputPipe> {
    const file = join(dir, name);
    // Node has no mkfifo; coreutils' makes it with this mode, or fails when the name is taken.
    await run('mkfifo', ['-m', '600', '--', file]);
    let fd: number | undefined;
    try {
      fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
      const st = fstatSync(fd);
      const uid = process.getuid?.();
      if (!st.isFIFO() || (uid !== undefined && st.uid !== uid)) throw new Error('the output pipe is not ours');
      return new OutputPipe(new Socket({ fd, readable: true, writable: false }), file);
    } catch (e) {
      if (fd !== undefined) closeSync(fd);
      rmSync(file, { force: true });
      throw e;
    }
  }

  /** Where what comes through the pipe goes from now on (the run's tail, later the terminal's screen). */
  onData(sink: (bytes: Buffer) => void): void {
    this.sink = sink;
  }

  /** Every writer closed it (the command and whatever it started are done with it), or it was closed. */
  get ended(): boolean {
    return this.done;
  }

  /** Resolves when it ended, or after `maxMs` when given. */
  whenEnded(maxMs?: number): Promise<void> {
    if (this.done) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = maxMs === undefined ? undefined : setTimeout(resolve, maxMs);
      this.ends.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Stops reading: a writer still there gets SIGPIPE at its next write, as with any closed pipe. */
  close(): void {
    this.sink = undefined;
    this.socket.destroy();
  }
}
