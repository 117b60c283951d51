/**
 * `uiautomator dump [FILE|/dev/tty]` and `screencap [-p] [-d DISPLAY] [FILE]`, as the phone's
 * build answers (FORMATS.md).
 *
 * uiautomator (cmds/uiautomator DumpCommand) waits for the screen to be idle; when it is not,
 * "ERROR: could not get idle state." and, without an active window, "ERROR: null root node
 * returned by UiTestAutomationBridge." go to the error stream and the status is 0 all the same.
 * screencap with several physical displays and no `-d` writes a three-line warning to the error
 * stream (the same stream as the image over `exec:`) and captures the first display SurfaceFlinger
 * lists; a display that is off, the sleeping phone and a FLAG_SECURE window come out black. The
 * display that is on is captured as its recorders see it (display/compositor.ts), latency probe included.
 */
import { displayFrame } from '../display/compositor';
import { encodePng, encodeRaw, renderFrame } from '../screen';
import type { CommandContext, CommandTable } from './types';

const DEFAULT_DUMP = '/sdcard/window_dump.xml';

const MULTI_DISPLAY_WARNING =
  '[Warning] Multiple displays were found, but no display id was specified! Defaulting to the first display found, ' +
  'however this default is not guaranteed to be consistent across captures. A display id should be specified.\n' +
  'A display ID can be specified with the [-d display-id] option.\n' +
  'See "dumpsys SurfaceFlinger --display-id" for valid display IDs.\n';

/** Why this dump fails, if it does: a one-off after a window transition, or a condition a test set. */
function dumpFailure(ctx: CommandContext): 'idle-state' | 'null-root' | null {
  const phone = ctx.phone;
  const c = phone.conditions;
  if (c.idleStateFailures > 0) {
    c.idleStateFailures--;
    return 'idle-state';
  }
  if (c.nullRootFailures > 0) {
    c.nullRootFailures--;
    return 'null-root';
  }
  const transition = phone.transitionPending;
  phone.transitionPending = false;
  return transition && phone.profile.dumpFlake !== 'none' ? phone.profile.dumpFlake : null;
}

/**
 * Which display `-d ID` means, or an error line. Android 10+ takes the physical id; older builds the built-in index 0.
 */
function displayIndex(ctx: CommandContext, id: string | undefined): number | string {
  const displays = ctx.phone.profile.displays;
  if (id === undefined) return 0;
  const index =
    ctx.phone.profile.android.dumps === 'legacy'
      ? id === '0'
        ? 0
        : -1
      : displays.findIndex((d) => d.physicalId === id);
  return index >= 0 ? index : `Failed to take take screenshot. Display Id '${id}' is not valid.\n`;
}

export const screenCommands: CommandTable = {
  async uiautomator(ctx) {
    const [sub, ...rest] = ctx.argv.slice(1);
    if (sub !== 'dump') {
      ctx.err(`Unknown command: ${sub ?? ''}\n`);
      return 1;
    }
    const file = rest.find((a) => !a.startsWith('--')) ?? DEFAULT_DUMP;
    const failure = dumpFailure(ctx);
    if (failure === 'idle-state') {
      // waitForIdle(1000, 10000) gave up: ten seconds on a phone.
      await ctx.takeTime(ctx.phone.profile.timing.idleTimeoutMs);
      ctx.err('ERROR: could not get idle state.\n');
      return 0;
    }
    await ctx.takeTime(ctx.phone.profile.timing.uiDumpMs);
    if (failure === 'null-root') {
      ctx.err('ERROR: null root node returned by UiTestAutomationBridge.\n');
      return 0;
    }
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
  async screencap(ctx) {
    const args = ctx.argv.slice(1);
    const png = args.includes('-p');
    const d = args.indexOf('-d');
    const file = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '-d').pop();
    const index = displayIndex(ctx, d >= 0 ? args[d + 1] : undefined);
    if (typeof index === 'string') {
      ctx.err(`${index}Capturing failed.\n`);
      return 1;
    }
    if (d < 0 && ctx.phone.profile.displays.length > 1) ctx.err(MULTI_DISPLAY_WARNING);
    await ctx.takeTime(ctx.phone.profile.timing.screencapMs);
    const frame = index === ctx.phone.hardware.activeDisplay ? displayFrame(ctx.phone) : renderFrame(ctx.phone, index);
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
