/** `uiautomator dump [FILE|/dev/tty]` and `screencap [-p] [FILE]`. */
import { displayFrame } from '../display/compositor';
import { encodePng, encodeRaw } from '../screen';
import type { CommandTable } from './types';

const DEFAULT_DUMP = '/sdcard/window_dump.xml';

export const screenCommands: CommandTable = {
  uiautomator(ctx) {
    const [sub, ...rest] = ctx.argv.slice(1);
    if (sub !== 'dump') {
      ctx.err(`Unknown command: ${sub ?? ''}\n`);
      return 1;
    }
    const file = rest.find((a) => !a.startsWith('--')) ?? DEFAULT_DUMP;
    const xml = ctx.phone.hierarchyXml();
    if (file === '/dev/tty' || file === '/dev/stdout') {
      ctx.out(xml);
    } else {
      const error = ctx.phone.fs.write(file, Buffer.from(xml, 'utf8'));
      if (error) {
        ctx.err(`ERROR: could not write ${file}: ${error}\n`);
        return 1;
      }
    }
    // The misspelling is Android's own.
    ctx.out(`UI hierchary dumped to: ${file}\n`);
    return 0;
  },
  screencap(ctx) {
    const args = ctx.argv.slice(1);
    const png = args.includes('-p');
    const file = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '-d').pop();
    const frame = displayFrame(ctx.phone);
    const bytes = png || file?.endsWith('.png') ? encodePng(frame) : encodeRaw(frame);
    if (!file) {
      ctx.stdout.write(bytes);
      return 0;
    }
    const error = ctx.phone.fs.write(file, bytes);
    if (error) {
      ctx.err(`Error opening file: ${file} (${error})\n`);
      return 1;
    }
    return 0;
  },
};
