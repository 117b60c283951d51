/**
 * `stty`: the size of the terminal on standard input (the phone's PTY in an interactive `adb shell`), as toybox prints
 * it.
 */
import { TtyInput } from '../pty-shell';
import type { CommandTable } from './types';

export const sttyCommands: CommandTable = {
  stty({ argv, stdin, out, err }) {
    if (!(stdin instanceof TtyInput)) {
      err('stty: standard input: Not a tty\n');
      return 1;
    }
    const args = argv.slice(1);
    if (args.length === 0 || args[0] === '-a') {
      out(`speed 38400 baud; rows ${stdin.rows}; columns ${stdin.cols}; line = 0;\n`);
      return 0;
    }
    if (args[0] === 'size' && args.length === 1) {
      out(`${stdin.rows} ${stdin.cols}\n`);
      return 0;
    }
    for (let i = 0; i < args.length; i += 2) {
      const value = Number(args[i + 1]);
      if (
        (args[i] !== 'rows' && args[i] !== 'cols' && args[i] !== 'columns') ||
        !Number.isInteger(value) ||
        value <= 0
      ) {
        err(`stty: unknown option '${args[i] ?? ''}'\n`);
        return 1;
      }
      if (args[i] === 'rows') stdin.rows = value;
      else stdin.cols = value;
    }
    return 0;
  },
};
