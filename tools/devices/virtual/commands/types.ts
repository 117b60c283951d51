/** The shape of a device command: argv in, bytes out, an exit status back. */
import type { VirtualPhone } from '../phone';
import type { CommandIO } from '../sh/interpret';

export interface CommandContext extends CommandIO {
  readonly argv: string[];
  readonly phone: VirtualPhone;
  /** Runs a nested command line through the device shell (`sh -c`), with this command's I/O. */
  runLine(line: string): Promise<number>;
  out(text: string): void;
  err(text: string): void;
  /** Spends the part of `ms` (a real phone's time for this command) the device's timeScale asks for. */
  takeTime(ms: number): Promise<void>;
}

export type CommandHandler = (ctx: CommandContext) => number | Promise<number>;

export type CommandTable = Record<string, CommandHandler>;

/** Splits argv into `-x`/`--long` flags (with values for the names in `withValue`) and operands. */
export function parseFlags(
  args: readonly string[],
  withValue: readonly string[] = [],
): { flags: Map<string, string>; operands: string[] } {
  const flags = new Map<string, string>();
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--') && arg.includes('=')) {
      const eq = arg.indexOf('=');
      flags.set(arg.slice(0, eq), arg.slice(eq + 1));
    } else if (arg.startsWith('-') && arg.length > 1) {
      if (withValue.includes(arg)) flags.set(arg, args[++i] ?? '');
      else if (!arg.startsWith('--') && arg.length > 2) for (const ch of arg.slice(1)) flags.set(`-${ch}`, '');
      else flags.set(arg, '');
    } else {
      operands.push(arg);
    }
  }
  return { flags, operands };
}
