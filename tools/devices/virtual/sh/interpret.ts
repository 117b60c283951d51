/**
 * Runs a parsed script. Pipes are buffered: each stage runs to completion and its output feeds the
 * next (enough for `dumpsys window | grep mCurrentFocus`; a never-ending producer such as
 * `logcat | grep x` therefore never reaches grep). Every simple command is reported to the host
 * before it runs, found or not: that record is what injection tests check.
 */
import type { Command, Pipeline, Redirect, Script, SimpleCommand, Word } from './ast';
import { BufferOutput, BufferSource, discard, type InputSource, type Output } from './io';
import { ShellSyntaxError, parseScript } from './parse';

export interface CommandIO {
  stdin: InputSource;
  stdout: Output;
  stderr: Output;
  signal: AbortSignal;
  env: Map<string, string>;
}

export interface ShellHost {
  /** Told about every simple command about to run, as argv. */
  record(argv: string[]): void;
  /** Runs a command; null when the name is unknown (the shell reports "not found", 127). */
  execute(argv: string[], io: CommandIO): Promise<number> | null;
  /** File contents for `<` redirections, or an error message. */
  readFile(path: string): Buffer | string;
  /** Writes (or appends) a file for `>`/`>>`; returns an error message or null. */
  writeFile(path: string, data: Buffer, append: boolean): string | null;
}

const SHELL_NAME = '/system/bin/sh';

class ExitRequest {
  constructor(readonly status: number) {}
}

export class ShellInterpreter {
  private status = 0;

  constructor(
    private readonly host: ShellHost,
    private readonly env: Map<string, string>,
  ) {}

  /** Parses and runs a command line; syntax errors go to stderr with status 1, like mksh. */
  async runLine(line: string, io: Omit<CommandIO, 'env'>): Promise<number> {
    let script: Script;
    try {
      script = parseScript(line);
    } catch (err) {
      if (!(err instanceof ShellSyntaxError)) throw err;
      io.stderr.write(`${SHELL_NAME}: syntax error: ${err.message}\n`);
      return 1;
    }
    try {
      return await this.runScript(script, { ...io, env: this.env });
    } catch (err) {
      if (err instanceof ExitRequest) return err.status;
      throw err;
    }
  }

  private async runScript(script: Script, io: CommandIO): Promise<number> {
    for (const list of script) {
      if (io.signal.aborted) return this.status;
      let status = await this.runPipeline(list.first, io);
      for (const { op, pipeline } of list.rest) {
        if ((op === '&&' && status !== 0) || (op === '||' && status === 0)) continue;
        status = await this.runPipeline(pipeline, io);
      }
      this.status = status;
    }
    return this.status;
  }

  private async runPipeline(pipeline: Pipeline, io: CommandIO): Promise<number> {
    let stdin = io.stdin;
    let status = 0;
    for (const [i, command] of pipeline.commands.entries()) {
      const last = i === pipeline.commands.length - 1;
      const out = last ? io.stdout : new BufferOutput();
      status = await this.runCommand(command, { ...io, stdin, stdout: out });
      if (out instanceof BufferOutput) stdin = new BufferSource(out.bytes());
    }
    this.status = pipeline.negated ? (status === 0 ? 1 : 0) : status;
    return this.status;
  }

  private async runCommand(command: Command, io: CommandIO): Promise<number> {
    const redirected = await this.applyRedirects(command.redirects, io);
    if (typeof redirected === 'number') return redirected;
    const { io: rio, flush } = redirected;
    try {
      if (command.kind === 'subshell') {
        const child = new ShellInterpreter(this.host, new Map(this.env));
        child.status = this.status;
        try {
          return await child.runScript(command.body, { ...rio, env: child.env });
        } catch (err) {
          if (err instanceof ExitRequest) return err.status;
          throw err;
        }
      }
      return await this.runSimple(command, rio);
    } finally {
      flush();
    }
  }

  private async runSimple(command: SimpleCommand, io: CommandIO): Promise<number> {
    if (io.signal.aborted) return 130;
    const argv: string[] = [];
    for (const word of command.words) argv.push(...(await this.expand(word, io)));
    const values: [string, string][] = [];
    for (const a of command.assignments) values.push([a.name, (await this.expand(a.value, io, false)).join('')]);
    const name = argv[0];
    if (name === undefined) {
      for (const [k, v] of values) this.env.set(k, v);
      return this.status;
    }
    this.host.record([...argv]);
    const env = values.length > 0 ? new Map([...this.env, ...values]) : io.env;
    if (name === 'eval') return this.evaluate(argv.slice(1).join(' '), { ...io, env });
    const builtin = this.builtin(argv);
    if (builtin !== null) return builtin;
    const running = this.host.execute(argv, { ...io, env });
    if (!running) {
      io.stderr.write(`${SHELL_NAME}: ${name}: not found\n`);
      return 127;
    }
    try {
      return await running;
    } catch (err) {
      io.stderr.write(`${name}: ${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    }
  }

  /**
   * `eval ARG…`: the arguments joined by spaces, parsed and run in this shell (POSIX eval; mksh
   * reports a syntax error in them as `eval: syntax error: …` with status 1).
   */
  private async evaluate(source: string, io: CommandIO): Promise<number> {
    let script: Script;
    try {
      script = parseScript(source);
    } catch (err) {
      if (!(err instanceof ShellSyntaxError)) throw err;
      io.stderr.write(`${SHELL_NAME}: eval: syntax error: ${err.message}\n`);
      return 1;
    }
    return this.runScript(script, io);
  }

  private builtin(argv: string[]): number | null {
    switch (argv[0]) {
      case 'exit':
        throw new ExitRequest(argv[1] === undefined ? this.status : Number(argv[1]) & 0xff);
      case ':':
      case 'cd':
        return 0;
      case 'export':
        for (const arg of argv.slice(1)) {
          const eq = arg.indexOf('=');
          if (eq > 0) this.env.set(arg.slice(0, eq), arg.slice(eq + 1));
        }
        return 0;
      case 'unset':
        for (const arg of argv.slice(1)) this.env.delete(arg);
        return 0;
      default:
        return null;
    }
  }

  /** Expands a word into fields: parameters and substitutions outside quotes are split on blanks. */
  private async expand(word: Word, io: CommandIO, split = true): Promise<string[]> {
    const fields: string[] = [];
    let current = '';
    let started = false;
    for (const part of word) {
      let value: string;
      if (part.kind === 'text') {
        current += part.value;
        started = true;
        continue;
      }
      if (part.kind === 'param') value = this.param(part.name);
      else value = await this.substitute(part.script, io);
      if (part.quoted || !split) {
        current += value;
        started = true;
        continue;
      }
      value.split(/[ \t\n]+/).forEach((piece, i) => {
        if (i > 0) {
          if (started) fields.push(current);
          current = '';
          started = false;
        }
        if (piece !== '') {
          current += piece;
          started = true;
        }
      });
    }
    if (started) fields.push(current);
    return fields;
  }

  private param(name: string): string {
    switch (name) {
      case '?':
        return String(this.status);
      case '$':
        return this.env.get('$$') ?? '1';
      case '#':
        return '0';
      case '0':
        return SHELL_NAME;
      default:
        return this.env.get(name) ?? '';
    }
  }

  /** Runs `$(…)`/backticks; the output, minus trailing newlines, replaces the part. */
  private async substitute(script: Script, io: CommandIO): Promise<string> {
    const out = new BufferOutput();
    const child = new ShellInterpreter(this.host, new Map(this.env));
    child.status = this.status;
    try {
      this.status = await child.runScript(script, { ...io, stdout: out, env: child.env });
    } catch (err) {
      if (!(err instanceof ExitRequest)) throw err;
      this.status = err.status;
    }
    return out.text().replace(/\n+$/, '');
  }

  /** Applies redirections left to right; file outputs are written when the command ends. */
  private async applyRedirects(
    redirects: Redirect[],
    io: CommandIO,
  ): Promise<{ io: CommandIO; flush: () => void } | number> {
    const fds = new Map<number, Output>([
      [1, io.stdout],
      [2, io.stderr],
    ]);
    let stdin = io.stdin;
    const files: { path: string; out: BufferOutput; append: boolean }[] = [];
    for (const r of redirects) {
      const target = (await this.expand(r.target, io)).join(' ');
      if (r.op === '>&' || r.op === '<&') {
        const source = fds.get(Number(target));
        if (r.op === '>&' && source) fds.set(r.fd, source);
        continue;
      }
      if (r.op === '<') {
        const content = target === '/dev/null' ? Buffer.alloc(0) : this.host.readFile(target);
        if (typeof content === 'string') {
          io.stderr.write(`${SHELL_NAME}: can't open ${target}: ${content}\n`);
          return 1;
        }
        stdin = new BufferSource(content);
        continue;
      }
      if (target === '/dev/null') {
        fds.set(r.fd, discard);
        continue;
      }
      const out = new BufferOutput();
      files.push({ path: target, out, append: r.op === '>>' });
      fds.set(r.fd, out);
    }
    // Create or truncate target files up front, as sh does, so errors show before the command runs.
    for (const f of files) {
      const error = this.host.writeFile(f.path, Buffer.alloc(0), f.append);
      if (error) {
        io.stderr.write(`${SHELL_NAME}: can't create ${f.path}: ${error}\n`);
        return 1;
      }
    }
    const flush = (): void => {
      for (const f of files) this.host.writeFile(f.path, f.out.bytes(), true);
    };
    return { io: { ...io, stdin, stdout: fds.get(1) ?? discard, stderr: fds.get(2) ?? discard }, flush };
  }
}
