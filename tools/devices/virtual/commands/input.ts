/**
 * `input tap|swipe|draganddrop|text|keyevent|press`.
 *
 * `input text` behaves as on a phone: only its first argument is typed, `%s` stands for a space,
 * and text with characters outside printable ASCII fails (Android's KeyCharacterMap cannot map
 * them: "NullPointerException: Attempt to get length of null array", exit 255) and types nothing.
 * For such text use ADBKeyboard's broadcast (see am.ts) or the clipboard and KEYCODE_PASTE.
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

function numbers(ctx: CommandContext, args: string[], count: number, name: string): number[] | null {
  const values = args.slice(0, count).map(Number);
  if (values.length < count || values.some((v) => !Number.isFinite(v))) {
    ctx.err(`Error: Invalid arguments for command: ${name}\n`);
    return null;
  }
  return values;
}

export const input: CommandHandler = (ctx) => {
  let args = ctx.argv.slice(1);
  if (args[0] === '-d') args = args.slice(2);
  if (args[0] && SOURCES.has(args[0])) args = args.slice(1);
  const [sub, ...rest] = args;
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
      if (!TYPABLE.test(decoded)) {
        ctx.err(
          "Exception occurred while executing 'text':\njava.lang.NullPointerException: Attempt to get length of null array\n",
        );
        return 255;
      }
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
