/**
 * `am` (start, force-stop, kill, broadcast) and `monkey -p PKG -c android.intent.category.LAUNCHER 1`.
 *
 * Broadcasts implement ADBKeyboard's protocol, the route for text `input text` cannot type
 * (non-ASCII): `am broadcast -a ADB_INPUT_TEXT --es msg TEXT`, `-a ADB_INPUT_B64 --es msg BASE64`,
 * `-a ADB_CLEAR_TEXT`, `-a ADB_INPUT_CODE --ei code KEYCODE`. As on a phone, ADBKeyboard receives
 * them only while it is the selected input method (its receiver is registered by the running IME
 * service, `ime set com.android.adbkeyboard/.AdbIME`) and types only into a focused field; `am`
 * prints "Broadcast completed: result=0" either way.
 */
import { pressKey, setFocusedText, typeText } from '../phone/input';
import { ADB_KEYBOARD_IME } from '../profiles';
import { parseComponent, shortComponent } from '../phone/packages';
import { keyName } from './keycodes';
import { ShellArgs, ShellArgumentError, printArgumentError } from './shell-args';
import type { CommandContext, CommandHandler } from './types';

interface Intent {
  action?: string;
  categories: string[];
  data?: string;
  component?: string;
  extras: Map<string, string>;
  wait: boolean;
  stopFirst: boolean;
}

/** ActivityManagerShellCommand.NO_CLASS_ERROR_CODE. */
const NO_CLASS_ERROR_CODE = 'Error type 3';
/** Intent.FLAG_ACTIVITY_NEW_TASK, added by runStartActivity after it prints "Starting:". */
const FLAG_ACTIVITY_NEW_TASK = '0x10000000';

const EXTRA_FLAGS = new Set(['--es', '-e', '--ei', '--ez', '--el', '--ef', '--eu', '--ecn', '--eia', '--ela', '--esa']);

function parseIntent(args: string[]): Intent {
  const intent: Intent = { categories: [], extras: new Map(), wait: false, stopFirst: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const next = (): string => args[++i] ?? '';
    if (arg === '-n') intent.component = next();
    else if (arg === '-a') intent.action = next();
    else if (arg === '-c') intent.categories.push(next());
    else if (arg === '-d') intent.data = next();
    else if (arg === '-W') intent.wait = true;
    else if (arg === '-S') intent.stopFirst = true;
    else if (arg === '--esn') intent.extras.set(next(), '');
    else if (EXTRA_FLAGS.has(arg)) {
      const key = next();
      intent.extras.set(key, next());
    } else if (['-t', '-f', '--user', '-p', '--receiver-permission', '--display'].includes(arg)) next();
    else if (!arg.startsWith('-') && !intent.component && arg.includes('/')) intent.component = arg;
  }
  return intent;
}

/** Intent.toShortString: `act=… cat=[…] dat=… flg=0x… cmp=… (has extras)`. */
function describe(intent: Intent, flags?: string): string {
  const parts: string[] = [];
  if (intent.action) parts.push(`act=${intent.action}`);
  if (intent.categories.length) parts.push(`cat=[${intent.categories.join(',')}]`);
  if (intent.data) parts.push(`dat=${intent.data}`);
  if (flags) parts.push(`flg=${flags}`);
  if (intent.component) {
    const c = parseComponent(intent.component);
    parts.push(`cmp=${c ? shortComponent(c[0], c[1]) : intent.component}`);
  }
  if (intent.extras.size) parts.push('(has extras)');
  return `Intent { ${parts.join(' ')} }`;
}

/** The package `-S` stops: the component's, or the one activity the intent resolves to (null: none or several). */
function packageToStop(intent: Intent): string | null {
  if (intent.component) return parseComponent(intent.component)?.[0] ?? null;
  if (intent.action === 'android.settings.SETTINGS') return 'com.android.settings';
  return null;
}

/**
 * `am start`: AOSP `ActivityManagerShellCommand.runStartActivity`. `-S` prints "Stopping: PKG" and
 * force-stops it first; "Starting: " + the intent as given; the result's lines go to standard output
 * with -W and to the error stream without (`PrintWriter out = mWaitOption ? pw : getErrPrintWriter()`);
 * START_CLASS_NOT_FOUND prints NO_CLASS_ERROR_CODE ("Error type 3") and "Error: Activity class {…} does
 * not exist.", START_INTENT_NOT_RESOLVED "Error: Activity not started, unable to resolve " + the intent,
 * which by then carries FLAG_ACTIVITY_NEW_TASK (`intent.addFlags(...)` after "Starting:"), so `flg=0x10000000`.
 * The status after an error is 1 on every profile (see FORMATS.md for why that is not pinned per release).
 */
function start(ctx: CommandContext, intent: Intent): number {
  if (intent.stopFirst) {
    const pkg = packageToStop(intent);
    if (!pkg) {
      ctx.err(`Error: Intent does not match any activities: ${describe(intent)}\n`);
      return 1;
    }
    ctx.out(`Stopping: ${pkg}\n`);
    ctx.phone.forceStop(pkg);
  }
  ctx.out(`Starting: ${describe(intent)}\n`);
  const out = (text: string): void => (intent.wait ? ctx.out(text) : ctx.err(text));
  const component = intent.component ? parseComponent(intent.component) : null;
  let error: string | null = null;
  if (component) {
    error = ctx.phone.startActivity(component[0], component[1]);
    // Both a missing activity and a missing package are START_CLASS_NOT_FOUND for an explicit component.
    if (error) error = `${NO_CLASS_ERROR_CODE}\nError: ${error}`;
  } else if (intent.categories.includes('android.intent.category.HOME')) {
    ctx.phone.goHome();
  } else if (intent.action === 'android.settings.SETTINGS') {
    error = ctx.phone.startActivity('com.android.settings');
    if (error) error = `${NO_CLASS_ERROR_CODE}\nError: ${error}`;
  } else {
    error = `Error: Activity not started, unable to resolve ${describe(intent, FLAG_ACTIVITY_NEW_TASK)}`;
  }
  if (error) {
    out(`${error}\n`);
    return 1;
  }
  if (intent.wait) {
    ctx.out(
      `Status: ok\nLaunchState: COLD\nActivity: ${ctx.phone.foregroundComponent()}\nTotalTime: ` +
        '180\nWaitTime: 184\nComplete\n',
    );
  }
  return 0;
}

function broadcast(ctx: CommandContext, intent: Intent): number {
  // `am broadcast` marks its intents FLAG_RECEIVER_FROM_SHELL (0x00400000).
  ctx.out(`Broadcasting: ${describe(intent, '0x400000')}\n`);
  const msg = intent.extras.get('msg') ?? '';
  const adbKeyboardListening =
    ctx.phone.services.setting('secure', 'default_input_method') === ADB_KEYBOARD_IME &&
    ctx.phone.getPackage('com.android.adbkeyboard') !== undefined;
  switch (adbKeyboardListening ? intent.action : undefined) {
    case 'ADB_INPUT_TEXT':
      typeText(ctx.phone, msg);
      break;
    case 'ADB_INPUT_B64':
      typeText(ctx.phone, Buffer.from(msg, 'base64').toString('utf8'));
      break;
    case 'ADB_CLEAR_TEXT':
      setFocusedText(ctx.phone, '');
      break;
    case 'ADB_INPUT_CODE': {
      const name = keyName(intent.extras.get('code') ?? '');
      if (name) pressKey(ctx.phone, name);
      break;
    }
    default:
      break;
  }
  ctx.out('Broadcast completed: result=0\n');
  return 0;
}

/**
 * `am force-stop|kill [--user U] PKG`: `runForceStop` / `runKill` read options with getNextOption,
 * then `forceStopPackage(getNextArgRequired(), userId)`: the first operand only, the rest ignored;
 * none throws getNextArgRequired's IllegalArgumentException ("Argument expected after \"force-stop\"");
 * an unknown option is "Error: Unknown option: X" on standard output, status -1 (255).
 */
function stopPackage(ctx: CommandContext, sub: string, rest: string[]): number {
  const args = new ShellArgs([sub, ...rest]);
  try {
    for (let opt = args.getNextOption(); opt !== null; opt = args.getNextOption()) {
      if (opt === '--user') args.getNextArgRequired();
      else {
        ctx.out(`Error: Unknown option: ${opt}\n`);
        return 255;
      }
    }
    ctx.phone.forceStop(args.getNextArgRequired());
    return 0;
  } catch (error) {
    if (!(error instanceof ShellArgumentError)) throw error;
    const method = sub === 'kill' ? 'runKill' : 'runForceStop';
    return printArgumentError(ctx, sub, error, [
      `com.android.server.am.ActivityManagerShellCommand.${method}(ActivityManagerShellCommand.java:1420)`,
      'com.android.server.am.ActivityManagerShellCommand.onCommand(ActivityManagerShellCommand.java:262)',
    ]);
  }
}

export const am: CommandHandler = (ctx) => {
  const [sub, ...rest] = ctx.argv.slice(1);
  switch (sub) {
    case 'start':
    case 'start-activity':
      return start(ctx, parseIntent(rest));
    case 'broadcast':
      return broadcast(ctx, parseIntent(rest));
    case 'force-stop':
    case 'kill':
      return stopPackage(ctx, sub, rest);
    case 'get-current-user':
      ctx.out('0\n');
      return 0;
    default:
      ctx.err(`Error: unknown command '${sub ?? ''}'\n`);
      return 1;
  }
};

/** Monkey's short options that take data (`nextOptionData`): -p, -c, -s (seed). */
const MONKEY_DATA_OPTIONS = new Set(['-p', '-c', '-s']);

/**
 * `monkey -p PKG -c CATEGORY COUNT`, as AOSP platform/development `cmds/monkey` prints it:
 * `monkey` (the script) echoes each argument as `  bash arg: A` on standard output (`echo "  bash
 * arg:" $a`, unquoted, so white space collapses); `Monkey.main` prints `args: [a, b, …]`
 * (Arrays.toString), `run` ` arg: "A"` for each, `nextOptionData` `data="D"` for each option's data,
 * all on Logger.err (the error stream). `getMainApps` finding no launcher activity prints "** No
 * activities found to run, monkey aborted." on Logger.out (standard output) and `run` returns -4
 * (status 252); otherwise "Events injected: 1" and MonkeyNetworkMonitor's line (the time is invented).
 * Only -p, -c, -s and -v are modelled.
 */
export const monkey: CommandHandler = (ctx) => {
  const args = ctx.argv.slice(1);
  for (const a of args) ctx.out(`${['  bash arg:', ...a.split(/\s+/).filter(Boolean)].join(' ')}\n`);
  ctx.err(`args: [${args.join(', ')}]\n${args.map((a) => ` arg: "${a}"\n`).join('')}`);
  let name: string | undefined;
  for (let i = 0; i < args.length && args[i]?.startsWith('-'); i++) {
    const opt = args[i] ?? '';
    if (!MONKEY_DATA_OPTIONS.has(opt) || i + 1 >= args.length) continue;
    const data = args[++i] ?? '';
    ctx.err(`data="${data}"\n`);
    if (opt === '-p') name ??= data;
  }
  if (!name || !ctx.phone.launchApp(name)) {
    ctx.out('** No activities found to run, monkey aborted.\n');
    return 252;
  }
  ctx.out('Events injected: 1\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n');
  return 0;
};
