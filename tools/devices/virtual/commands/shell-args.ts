/**
 * How a system service's shell command (`cmd package`, `cmd activity`, and `pm`/`am`, which call
 * them) reads its arguments and reports a thrown exception: AOSP
 * `modules/utils/.../BasicShellCommandHandler.java` (android.os.ShellCommand before Android 11).
 * `-xy` is option `-x` with data `y`, which a flag option refuses on the next read ("No argument
 * expected after"); a missing operand throws "Argument expected after" the argument before it.
 */
import type { CommandContext } from './types';

/** An IllegalArgumentException thrown while reading the arguments. */
export class ShellArgumentError extends Error {}

export class ShellArgs {
  private pos: number;
  private curArgData: string | undefined;

  /** `args` holds the command word (`force-stop`, `list`) first; reading starts after it. */
  constructor(private readonly args: readonly string[]) {
    this.pos = 1;
  }

  getNextOption(): string | null {
    if (this.curArgData !== undefined)
      throw new ShellArgumentError(`No argument expected after "${this.args[this.pos - 1]}"`);
    const arg = this.args[this.pos];
    if (arg === undefined || !arg.startsWith('-')) return null;
    this.pos++;
    if (arg === '--') return null;
    if (arg.length > 2 && arg[1] !== '-') {
      this.curArgData = arg.slice(2);
      return arg.slice(0, 2);
    }
    return arg;
  }

  getNextArg(): string | null {
    if (this.curArgData !== undefined) {
      const data = this.curArgData;
      this.curArgData = undefined;
      return data;
    }
    if (this.pos >= this.args.length) return null;
    return this.args[this.pos++] ?? null;
  }

  getNextArgRequired(): string {
    const arg = this.getNextArg();
    if (arg === null) throw new ShellArgumentError(`Argument expected after "${this.args[this.pos - 1] ?? ''}"`);
    return arg;
  }
}

/**
 * Prints an exception as the shell command's `exec` does, on the error stream after an empty line:
 * Android 11+ "Exception occurred while executing '" + mCmd + "':", Android 8–10 "Exception occurred
 * while executing:", then `printStackTrace` (the frames' line numbers here are invented). `exec`
 * returns -1: status 255.
 */
export function printShellException(
  ctx: CommandContext,
  cmd: string,
  exception: string,
  frames: readonly string[],
): number {
  const head =
    ctx.phone.profile.sdk >= 30
      ? `Exception occurred while executing '${cmd}':`
      : 'Exception occurred while executing:';
  const handler =
    ctx.phone.profile.sdk >= 30 ? 'com.android.modules.utils.BasicShellCommandHandler' : 'android.os.ShellCommand';
  const file = handler.split('.').pop() ?? '';
  const trace = [...frames, `${handler}.exec(${file}.java:97)`].map((f) => `\tat ${f}\n`).join('');
  ctx.err(`\n${head}\n${exception}\n${trace}`);
  return 255;
}

/** printShellException for an argument error, with the handler's frame that threw it. */
export function printArgumentError(
  ctx: CommandContext,
  cmd: string,
  error: ShellArgumentError,
  frames: readonly string[],
): number {
  const handler =
    ctx.phone.profile.sdk >= 30 ? 'com.android.modules.utils.BasicShellCommandHandler' : 'android.os.ShellCommand';
  const file = handler.split('.').pop() ?? '';
  const thrower = error.message.startsWith('No argument') ? 'getNextOption' : 'getNextArgRequired';
  return printShellException(ctx, cmd, `java.lang.IllegalArgumentException: ${error.message}`, [
    `${handler}.${thrower}(${file}.java:${thrower === 'getNextOption' ? 251 : 295})`,
    ...frames,
  ]);
}
