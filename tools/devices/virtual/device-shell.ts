/**
 * The device's `/system/bin/sh`: parses a command line, runs it against the phone's commands, and
 * records every simple command it runs (or tries to run) as argv. Each top-level line gets a fresh
 * shell, as each `adb shell` does on a phone.
 */
import { commandsFor } from './commands';
import { type FaultSettings, sleep, waitForAbort } from './faults';
import type { CommandContext } from './commands/types';
import type { VirtualPhone } from './phone';
import type { InputSource, Output } from './sh/io';
import { ShellInterpreter, type CommandIO, type ShellHost } from './sh/interpret';

export interface ShellIO {
  stdin: InputSource;
  stdout: Output;
  stderr: Output;
  signal: AbortSignal;
}

const BIN_DIRS = /^\/(system\/bin|system\/xbin|vendor\/bin|bin)\//;

export class DeviceShell {
  private nextPid = 20000;
  private readonly commands;

  constructor(
    private readonly phone: VirtualPhone,
    private readonly executed: string[][],
    /** Share of a real phone's command times to spend (0: none). */
    private readonly timeScale = 0,
    /** The device's fault settings, read as each command starts (hangCommands, beforeCommand). */
    private readonly faults: () => FaultSettings = () => ({}),
  ) {
    this.commands = commandsFor(phone.profile);
  }

  /** Runs one command line in a new shell; resolves to its exit status. */
  run(line: string, io: ShellIO): Promise<number> {
    const env = new Map([
      ['PATH', '/product/bin:/apex/com.android.runtime/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin'],
      ['HOME', '/'],
      ['SHELL', '/system/bin/sh'],
      ['USER', 'shell'],
      ['HOSTNAME', 'localhost'],
      ['TMPDIR', '/data/local/tmp'],
      ['EXTERNAL_STORAGE', '/sdcard'],
      ['ANDROID_DATA', '/data'],
      ['ANDROID_ROOT', '/system'],
      ['$$', String(this.nextPid++)],
    ]);
    return new ShellInterpreter(this.host(), env).runLine(line, io);
  }

  /** Runs argv without a shell (the `abb_exec:` service), still recording it. */
  exec(argv: string[], io: ShellIO): Promise<number> {
    this.executed.push([...argv]);
    const running = this.host().execute(argv, { ...io, env: new Map() });
    if (running) return running;
    io.stderr.write(`${argv[0] ?? ''}: not found\n`);
    return Promise.resolve(127);
  }

  private host(): ShellHost {
    const phone = this.phone;
    return {
      record: (argv) => this.executed.push(argv),
      execute: (argv, io) => {
        const name = (argv[0] ?? '').replace(BIN_DIRS, '');
        const handler = Object.hasOwn(this.commands, name) ? this.commands[name] : undefined;
        if (!handler) return null;
        this.faults().beforeCommand?.(argv);
        if (this.faults().hangCommands?.includes(name)) return waitForAbort(io.signal).then(() => 130);
        const ctx: CommandContext = {
          ...io,
          argv,
          phone,
          runLine: (line) => this.runNested(line, io),
          out: (text) => io.stdout.write(text),
          err: (text) => io.stderr.write(text),
          takeTime: (ms) => (this.timeScale > 0 ? sleep(ms * this.timeScale, io.signal) : Promise.resolve()),
        };
        return Promise.resolve().then(() => handler(ctx));
      },
      readFile: (path) => phone.fs.read(path),
      writeFile: (path, data, append) => phone.fs.write(path, data, { append }),
    };
  }

  private runNested(line: string, io: CommandIO): Promise<number> {
    return new ShellInterpreter(this.host(), new Map(io.env)).runLine(line, io);
  }
}
