/**
 * `adb shell` with no command. With a pty (a terminal on the host, in raw mode) this side prompts,
 * echoes keys, handles backspace, Ctrl-C (drop the line) and Ctrl-D (exit), and turns output
 * newlines into CR LF. Without one (`adb shell < script`, a host's persistent shell) it runs the
 * commands it reads, one after the other, a command whose quote is still open at a line's end read
 * on to its end, as sh does; the device's faults (a hang, an unplug) apply to each command.
 */
import type { DeviceShell } from '../device-shell';
import type { FaultSettings } from '../faults';
import { waitForAbort } from '../faults';
import { emptyInput, type Output } from '../sh/io';
import { needsMoreInput } from '../sh/parse';
import type { ServiceHandler } from '../transport-server';

const PROMPT = 'virtual:/ $ ';

export interface InteractiveDeps {
  shell: DeviceShell;
  commandLog: string[];
  /** The device's fault settings, read as each command starts: a hanging phone hangs here too. */
  faults?(): FaultSettings;
  unplug?(): void;
}

/** `frameOut` wraps bytes for the protocol (v2 frames or raw); `onInput` delivers stdin bytes. */
export function interactiveShell(
  deps: InteractiveDeps,
  frameOut: (data: Buffer) => Buffer,
  exitFrame: ((status: number) => Buffer) | null,
  subscribeInput: (stream: Parameters<ServiceHandler>[0], onInput: (data: Buffer) => void, onEnd: () => void) => void,
  tty: boolean,
): ServiceHandler {
  return (stream) => {
    const write = (text: string): void =>
      stream.write(frameOut(Buffer.from(tty ? text.replace(/\r?\n/g, '\r\n') : text, 'utf8')));
    const echo = (text: string): void => {
      if (tty) write(text);
    };
    const out: Output = { write: (d) => write(typeof d === 'string' ? d : d.toString('utf8')) };
    let line = '';
    /** Lines read so far of a command that continues (an open quote), without a pty. */
    let continued = '';
    let running: Promise<void> = Promise.resolve();
    let status = 0;
    const exit = (): void => {
      if (exitFrame) stream.write(exitFrame(status));
      stream.end();
    };
    echo(PROMPT);
    const onEnd = (): void => {
      // Without a pty, the end of input ends the shell once the pending lines have run.
      if (!tty && !stream.closed) running = running.then(exit);
    };
    subscribeInput(
      stream,
      (data) => {
        for (const ch of data.toString('utf8')) {
          // Without a pty there is no line discipline: only a newline ends a line, and every other
          // byte (a tab, a carriage return, a control key) is part of the command.
          if (!tty && ch !== '\n') {
            line += ch;
            continue;
          }
          if (ch === '\r' || ch === '\n') {
            if (!tty && needsMoreInput(continued + line)) {
              continued += `${line}\n`;
              line = '';
              continue;
            }
            const command = continued + line;
            continued = '';
            line = '';
            echo('\n');
            running = running.then(async () => {
              if (command.trim() === 'exit') return exit();
              if (command.trim() !== '') {
                deps.commandLog.push(command);
                const faults = deps.faults?.() ?? {};
                if (faults.unplugMidCommand || faults.hang) {
                  if (faults.unplugMidCommand) setImmediate(() => deps.unplug?.());
                  return waitForAbort(stream.signal);
                }
                status = await deps.shell.run(command, {
                  stdin: emptyInput,
                  stdout: out,
                  stderr: out,
                  signal: stream.signal,
                });
              }
              echo(PROMPT);
            });
          } else if (ch === '\x7f' || ch === '\b') {
            if (line.length > 0) {
              line = [...line].slice(0, -1).join('');
              echo('\b \b');
            }
          } else if (ch === '\x03') {
            line = '';
            echo(`^C\n${PROMPT}`);
          } else if (ch === '\x04') {
            if (line === '') running = running.then(exit);
          } else if (ch >= ' ') {
            line += ch;
            echo(ch);
          }
        }
      },
      onEnd,
    );
  };
}
