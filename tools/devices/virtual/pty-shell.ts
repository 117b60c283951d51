/**
 * `shell,v2,…,pty:` with no command: what `adb shell` opens from a terminal, an interactive shell
 * on the phone's PTY, carried in shell v2 packets. The PTY has a window size, set by the host's
 * window-size packets (id 5, "ROWSxCOLS,XPIXxYPIX") and read by `stty size`. Its line discipline
 * echoes, erases (Backspace, Ctrl-U), turns output newlines into CR LF, and Ctrl-C stops the
 * command that runs (its signal aborts, status 130, the rest of the line is dropped) or drops the
 * line being typed; Ctrl-D on an empty line exits. Keys typed while a command runs wait for the
 * next prompt, as on a real terminal.
 */
import type { DeviceShell } from './device-shell';
import type { InputSource, Output } from './sh/io';
import type { ServiceHandler } from './transport-server';

const PROMPT = 'virtual:/ $ ';
const STDIN = 0;
const STDOUT = 1;
const EXIT = 3;
const CLOSE_STDIN = 4;
const WINDOW_SIZE = 5;

/** The PTY as its commands see it on their standard input: a terminal with a size, from which they read no bytes. */
export class TtyInput implements InputSource {
  rows = 24;
  cols = 80;

  async read(): Promise<Buffer | null> {
    return null;
  }
}

function packet(id: number, data: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt8(id, 0);
  header.writeUInt32LE(data.length, 1);
  return Buffer.concat([header, data]);
}

export function ptyShell(deps: { shell: DeviceShell; commandLog: string[] }): ServiceHandler {
  return (stream) => {
    const tty = new TtyInput();
    const write = (text: string): void => {
      stream.write(packet(STDOUT, Buffer.from(text.replace(/\r?\n/g, '\r\n'), 'utf8')));
    };
    const out: Output = { write: (d) => write(typeof d === 'string' ? d : d.toString('utf8')) };
    let line = '';
    let status = 0;
    let running: AbortController | undefined;
    let queued = '';
    let ended = false;
    const exit = (): void => {
      if (ended) return;
      ended = true;
      stream.write(packet(EXIT, Buffer.from([status & 0xff])));
      stream.end();
    };

    const runLine = async (command: string): Promise<void> => {
      running = new AbortController();
      const signal = AbortSignal.any([stream.signal, running.signal]);
      deps.commandLog.push(command);
      try {
        status = await deps.shell.run(command, { stdin: tty, stdout: out, stderr: out, signal });
      } catch (e) {
        out.write(`/system/bin/sh: ${e instanceof Error ? e.message : String(e)}\n`);
        status = 1;
      }
      if (running.signal.aborted) status = 130;
      running = undefined;
      if (stream.closed || ended) return;
      write(PROMPT);
      const rest = queued;
      queued = '';
      if (rest) keys(rest);
    };

    const keys = (text: string): void => {
      const chars = [...text];
      for (let i = 0; i < chars.length; i++) {
        const ch = chars[i]!;
        if (ended) return;
        if (running) {
          if (ch === '\x03' || ch === '\x1c') {
            running.abort();
            write('^C\n');
          } else queued += ch;
          continue;
        }
        if (ch === '\r' || ch === '\n') {
          const command = line;
          line = '';
          write('\n');
          if (command.trim() === 'exit') return exit();
          if (command.trim() === '') {
            write(PROMPT);
            continue;
          }
          // The rest of what was typed waits for the next prompt.
          queued += chars.slice(i + 1).join('');
          void runLine(command);
          return;
        }
        if (ch === '\x7f' || ch === '\b') {
          if (line.length > 0) {
            line = [...line].slice(0, -1).join('');
            write('\b \b');
          }
        } else if (ch === '\x15') {
          write('\b \b'.repeat([...line].length));
          line = '';
        } else if (ch === '\x03') {
          line = '';
          write(`^C\n${PROMPT}`);
        } else if (ch === '\x04') {
          if (line === '') return exit();
        } else if (ch >= ' ') {
          line += ch;
          write(ch);
        }
      }
    };

    let buffer = Buffer.alloc(0);
    stream.onData((chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 5) {
        const length = buffer.readUInt32LE(1);
        if (buffer.length < 5 + length) break;
        const id = buffer.readUInt8(0);
        const payload = buffer.subarray(5, 5 + length);
        buffer = buffer.subarray(5 + length);
        if (id === STDIN) keys(payload.toString('utf8'));
        else if (id === CLOSE_STDIN) exit();
        else if (id === WINDOW_SIZE) {
          const m = /^(\d+)x(\d+)/.exec(payload.toString('ascii'));
          if (m && Number(m[1]) > 0 && Number(m[2]) > 0) {
            tty.rows = Number(m[1]);
            tty.cols = Number(m[2]);
          }
        }
      }
    });
    stream.signal.addEventListener('abort', () => running?.abort(), { once: true });
    write(PROMPT);
  };
}
