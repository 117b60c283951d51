/**
 * `input tap|swipe|draganddrop|text|keyevent|press`.
 *
 * `input text` behaves as on a phone: only its first argument is typed, `%s` stands for a space,
 * and text with characters outside printable ASCII fails (KeyCharacterMap cannot map them: a
 * NullPointerException "Attempt to get length of null array") and types nothing. For such text use
 * ADBKeyboard's broadcast (see am.ts) or the clipboard and KEYCODE_PASTE.
 *
 * Failures are printed as the phone's build prints them: since Android 12 `input` runs in
 * system_server through `cmd input` ("Exception occurred while executing 'tap':", status 255);
 * before, it is an app_process program whose uncaught exception ends it (status 1; the status is
 * not taken from a phone). OEM builds that revoke INJECT_EVENTS from the shell (MIUI/HyperOS
 * until "USB debugging (Security settings)" is on) refuse every injection with a SecurityException.
 */
import { pressKey, swipe, tap, typeText } from '../phone/input';
import { keyName } from './keycodes';
import type { CommandContext, CommandHandler } from './types';

const SOURCES = new Set([
  'touchscreen',
  'touchpad',
  'keyboard',
  'mouse',
  'dpad',
  'gamepad',
  'joystick',
  'trackball',
  'stylus',
  'touchnavigation',
  'rotaryencoder',
]);
const TYPABLE = /^[\x20-\x7e\n\t]*$/;

const INJECT_EVENTS =
  'java.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, ' +
  'if any) to have the INJECT_EVENTS permission.';
const NULL_ARRAY = 'java.lang.NullPointerException: Attempt to get length of null array';

/** Prints an exception as `cmd input` (Android 12+) or the app_process `input` (older) does. */
function exception(ctx: CommandContext, sub: string, message: string, frames: readonly string[]): number {
  if (ctx.phone.profile.android.inputViaCmd) {
    const trace = frames.map((f) => `\tat ${f}\n`).join('');
    ctx.err(`\nException occurred while executing '${sub}':\n${message}\n${trace}`);
    return 255;
  }
  const trace = frames.map(
    (f) => `\tat ${f.replace('com.android.server.input.InputShellCommand', 'com.android.commands.input.Input')}\n`,
  );
  ctx.err(`Exception in thread "main" ${message}\n${trace.join('')}`);
  return 1;
}

const INJECT_FRAMES = [
  'android.os.Parcel.createExceptionOrNull(Parcel.java:3069)',
  'android.os.Parcel.createException(Parcel.java:3053)',
  'android.os.Parcel.readException(Parcel.java:3036)',
  'android.hardware.input.IInputManager$Stub$Proxy.injectInputEventToTarget(IInputManager.java:1258)',
  'android.hardware.input.InputManagerGlobal.injectInputEvent(InputManagerGlobal.java:1117)',
  'com.android.server.input.InputShellCommand.injectMotionEvent(InputShellCommand.java:149)',
  'com.android.server.input.InputShellCommand.onCommand(InputShellCommand.java:219)',
];
const TEXT_FRAMES = [
  'com.android.server.input.InputShellCommand.sendText(InputShellCommand.java:331)',
  'com.android.server.input.InputShellCommand.runText(InputShellCommand.java:310)',
  'com.android.server.input.InputShellCommand.onCommand(InputShellCommand.java:226)',
];

function numbers(ctx: CommandContext, args: string[], count: number, name: string): number[] | null {
  const values = args.slice(0, count).map(Number);
  if (values.length < count || values.some((v) => !Number.isFinite(v))) {
    ctx.err(`Error: Invalid arguments for command: ${name}\n`);
    return null;
  }
  return values;
}

export const input: CommandHandler = async (ctx) => {
  let args = ctx.argv.slice(1);
  if (args[0] === '-d') args = args.slice(2);
  if (args[0] && SOURCES.has(args[0])) args = args.slice(1);
  const [sub, ...rest] = args;
  // Before Android 12 every `input` starts a Java VM.
  await ctx.takeTime(ctx.phone.profile.timing.inputStartMs);
  const injects = ['tap', 'swipe', 'draganddrop', 'text', 'keyevent', 'press', 'roll', 'motionevent'];
  if (sub && injects.includes(sub) && !ctx.phone.hardware.injectionAllowed())
    return exception(ctx, sub, INJECT_EVENTS, INJECT_FRAMES);
  switch (sub) {
    case 'tap': {
      const v = numbers(ctx, rest, 2, 'tap');
      if (!v) return 1;
      tap(ctx.phone, v[0] ?? 0, v[1] ?? 0);
      return 0;
    }
    case 'swipe':
    case 'draganddrop': {
      const v = numbers(ctx, rest, 4, sub);
      if (!v) return 1;
      swipe(ctx.phone, v[0] ?? 0, v[1] ?? 0, v[2] ?? 0, v[3] ?? 0);
      return 0;
    }
    case 'text': {
      const text = rest[0];
      if (text === undefined) {
        ctx.err('Error: Invalid arguments for command: text\n');
        return 1;
      }
      const decoded = text.replace(/%s/g, ' ');
      if (!TYPABLE.test(decoded)) return exception(ctx, 'text', NULL_ARRAY, TEXT_FRAMES);
      typeText(ctx.phone, decoded);
      return 0;
    }
    case 'keyevent':
    case 'press': {
      const codes = sub === 'press' ? ['KEYCODE_DPAD_CENTER'] : rest.filter((a) => !a.startsWith('--'));
      if (codes.length === 0) {
        ctx.err('Error: Invalid arguments for command: keyevent\n');
        return 1;
      }
      for (const code of codes) {
        const name = keyName(code);
        if (!name || !pressKey(ctx.phone, name)) {
          ctx.err(`Error: Unknown keycode: ${code}\n`);
          return 1;
        }
      }
      return 0;
    }
    default:
      ctx.err(`Error: Unknown command: ${sub ?? ''}\n`);
      return 1;
  }
};
