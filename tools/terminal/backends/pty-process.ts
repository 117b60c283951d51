/**
 * A program on a PTY of this machine, through node-pty (the Node-API build @lydell/node-pty, so
 * Electron loads it too): the host shell, and bubblewrap or PRoot with the sandbox's shell inside.
 * INT, QUIT and TSTP are sent as the terminal's keys (Ctrl-C, Ctrl-\, Ctrl-Z), so the line
 * discipline signals whatever is in the foreground, exactly as a person's keystroke does; TERM, HUP
 * and KILL go to the foreground process group by pid. Ending kills the session, every descendant
 * and anything still carrying the terminal's marker.
 */
import { spawn as spawnPty } from '@lydell/node-pty';
import { endProcesses, readStat, readWchan, signalAll } from '../process-scan';
import { type OutputDir, removeOutputDir } from './output-dir';
import type { Foreground, ProcessExit, TerminalProcess, TerminalSignal } from './types';

const SHELLS = new Set(['sh', 'bash', 'dash', 'ash', 'zsh', 'mksh', 'ksh', 'fish', 'busybox', 'tcsh', 'csh']);

/**
 * Where the kernel has a process sleep while it waits in read, poll or select: on its terminal, for
 * a shell at its prompt.
 */
const READING = /^(?:wait_woken|n_tty_read|poll_schedule_timeout|do_select|core_sys_select|do_sys_poll|do_poll)/;

const KEY_FOR: Partial<Record<TerminalSignal, string>> = { INT: '\x03', QUIT: '\x1c', TSTP: '\x1a' };

export interface PtySpawn {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  cols: number;
  rows: number;
  marker: string;
  describe: string;
  /** The terminal's folder for pipe-mode runs, removed when the program ends. */
  outputDir?: OutputDir;
}

export function spawnPtyProcess(spec: PtySpawn): TerminalProcess {
  const pty = spawnPty(spec.file, spec.args, {
    name: 'xterm-256color',
    cols: spec.cols,
    rows: spec.rows,
    cwd: spec.cwd,
    env: spec.env,
    encoding: null,
  });
  const root = pty.pid;
  let exited: ProcessExit | undefined;
  const exitListeners: ((e: ProcessExit) => void)[] = [];
  pty.onExit(({ exitCode, signal }) => {
    exited = { exitCode: signal ? null : exitCode, ...(signal ? { signal: String(signal) } : {}) };
    if (spec.outputDir) removeOutputDir(spec.outputDir.host);
    for (const l of exitListeners) l(exited);
  });

  const foregroundGroup = (): number | undefined => {
    const tpgid = readStat(root)?.tpgid;
    return tpgid !== undefined && tpgid > 0 ? tpgid : undefined;
  };

  return {
    describe: spec.describe,
    ...(spec.outputDir ? { outputDir: spec.outputDir } : {}),
    write: (data) => {
      if (!exited) pty.write(data);
    },
    resize: (cols, rows) => {
      if (!exited) pty.resize(cols, rows);
    },
    signal: (sig) => {
      if (exited) return;
      const key = KEY_FOR[sig];
      if (key) {
        pty.write(key);
        return;
      }
      const group = foregroundGroup();
      const name = `SIG${sig}` as NodeJS.Signals;
      if (group !== undefined) signalAll([-group], name);
      else signalAll([root], name);
    },
    foreground: (): Foreground => {
      const group = foregroundGroup();
      const leader = group !== undefined ? readStat(group) : undefined;
      if (!leader) return { kind: 'unknown' };
      return SHELLS.has(leader.comm) ? { kind: 'shell', name: leader.comm } : { kind: 'program', name: leader.comm };
    },
    readingInput: () => {
      const tpgid = readStat(root)?.tpgid;
      if (tpgid === undefined) return undefined;
      // No group in front, another program, or one that just ended (a prompt hook's, between two
      // commands): the shell is not reading yet.
      if (tpgid <= 0) return false;
      const group = tpgid;
      const leader = readStat(group);
      if (!leader || !SHELLS.has(leader.comm) || leader.state !== 'S') return false;
      const where = readWchan(group);
      // A sleeping process shows "0" where the kernel keeps its symbol names to itself: nothing can be told.
      return where === undefined || where === '0' || where === '' ? undefined : READING.test(where);
    },
    onData: (listener) => {
      // With `encoding: null` node-pty hands over Buffers; its typings still say string.
      pty.onData((d) => listener(d as unknown as Buffer));
    },
    onExit: (listener) => {
      if (exited) listener(exited);
      else exitListeners.push(listener);
    },
    end: async () => {
      await endProcesses(root, spec.marker);
      if (spec.outputDir) removeOutputDir(spec.outputDir.host);
      if (!exited) {
        try {
          pty.kill('SIGKILL');
        } catch {
          // gone already
        }
      }
    },
  };
}
