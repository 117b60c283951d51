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

function start(ctx: CommandContext, intent: Intent): number {
  ctx.out(`Starting: ${describe(intent)}\n`);
  const component = intent.component ? parseComponent(intent.component) : null;
  let error: string | null;
  if (component) {
    if (intent.stopFirst) ctx.phone.forceStop(component[0]);
    error = ctx.phone.startActivity(component[0], component[1]);
  } else if (intent.categories.includes('android.intent.category.HOME')) {
    ctx.phone.goHome();
    error = null;
  } else if (intent.action === 'android.settings.SETTINGS') {
    error = ctx.phone.startActivity('com.android.settings');
  } else {
    error = `Activity not started, unable to resolve ${describe(intent)}`;
  }
  if (error) {
    ctx.err(`Error type 3\nError: ${error}\n`);
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
      for (const name of rest.filter((a) => !a.startsWith('-') && !/^\d+$/.test(a))) ctx.phone.forceStop(name);
      return 0;
    case 'get-current-user':
      ctx.out('0\n');
      return 0;
    default:
      ctx.err(`Error: unknown command '${sub ?? ''}'\n`);
      return 1;
  }
};

export const monkey: CommandHandler = (ctx) => {
  const args = ctx.argv.slice(1);
  const p = args.indexOf('-p');
  const name = p >= 0 ? args[p + 1] : undefined;
  if (!name || !ctx.phone.launchApp(name)) {
    ctx.err('** No activities found to run, monkey aborted.\n');
    return 252;
  }
  ctx.out('Events injected: 1\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n');
  return 0;
};
