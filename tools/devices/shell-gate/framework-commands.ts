/**
 * Android's framework commands, verb by verb: `dumpsys` (a service's dump may take verbs that
 * change state, e.g. `battery set|unplug|reset`, `deviceidle force-idle|step`), `pm`, `cmd`, `am`,
 * `settings`, `wm`, `service`, `content`, `screencap`, `ip` and `ifconfig`. Read verbs are listed;
 * anything else asks, and the verbs that would cut the connection or reboot are refused.
 */
import { type Judgement, ask, deny, read, tok } from './judgement';
import { parseOptions } from './option-parser';
import { type Field, staticText } from './word-fields';

const DUMPSYS_GLOBAL_WITH_ARG = new Set(['-t', '-T', '--skip', '--priority']);
const DUMPSYS_GLOBAL_FLAGS = new Set(['--proto', '--dump', '--pid', '--thread', '--stability', '--clients', '-c']);
const DUMPSYS_READ_FLAGS = new Set(
  (
    '-a -c -d -f -h -p -s -u -v --all --checkin --short --proto --noredact --hours --package --history ' +
    '--history-start --charged --details --unreachable --oom --local --verbose --list --latency --list-displays ' +
    '--display-id --help --brief --current --full --user'
  ).split(' '),
);
const DUMPSYS_READ_WORDS = new Set(
  (
    'activities activity a top recents r broadcasts b intents i processes p services s service providers prov ' +
    'provider permissions perm lastanr lastanr-traces starter containers lru oom o exit-info windows w window ' +
    'displays d display tokens t policy animator visible visible-apps focus input packages package prefs libs ' +
    'features verifiers version messages frames framestats detail details full summary history stats status info ' +
    'state list all users user battery power wifi netstats connectivity meminfo cpuinfo gfxinfo usagestats procstats ' +
    'alarm jobscheduler notification location media_session audio SurfaceFlinger input_method account appops ' +
    'batterystats deviceidle dbinfo diskstats telephony settings'
  ).split(' '),
);
/** Verbs services take in their dump to change state; named in the message so the model knows why. */
const DUMPSYS_STATE_VERBS = new Set(
  (
    'set reset unplug enable disable force-idle force-inactive force-active step unforce whitelist ' +
    'except-idle-whitelist tempwhitelist sys-whitelist clear write commit add remove delete put kill start stop ' +
    'trim gc suspend resume new-daily --reset --clear --write --enable --disable --new-daily --latency-clear ' +
    '-clear -enable -disable --settings'
  ).split(' '),
);
const PACKAGE_LIKE = /^[A-Za-z][\w]*(\.[\w$]+)+(\/[\w.$]*)?$/;

function dumpsys(args: readonly Field[]): Judgement {
  let i = 0;
  for (; i < args.length; i++) {
    const text = staticText(args[i]!);
    if (text === null) return ask(`${tok(args[i]!.text)}: a dumpsys argument only known when it runs`);
    if (text === '-l') return read('dumpsys lists services');
    if (DUMPSYS_GLOBAL_WITH_ARG.has(text)) i++;
    else if (!DUMPSYS_GLOBAL_FLAGS.has(text)) break;
  }
  const service = args[i];
  if (!service) return read('dumpsys dumps every service');
  if (!/^[\w.-]+$/.test(service.text) || service.text.startsWith('-'))
    return ask(`${tok(service.text)}: a dumpsys option not known to be read-only`);
  for (const arg of args.slice(i + 1)) {
    const text = staticText(arg);
    if (text === null) return ask(`${tok(arg.text)}: a dumpsys argument only known when it runs`);
    if (DUMPSYS_STATE_VERBS.has(text.toLowerCase()))
      return ask(`${tok(text)}: a dumpsys verb that changes the device's state`);
    if (
      !/^\d+$/.test(text) &&
      !PACKAGE_LIKE.test(text) &&
      !DUMPSYS_READ_FLAGS.has(text) &&
      !DUMPSYS_READ_WORDS.has(text)
    )
      return ask(`${tok(text)}: a dumpsys argument not known to be read-only`);
  }
  return read(`dumpsys ${service.text}`);
}

const PM_READ = /^(list|path|dump|has-feature|resolve-activity|query-(activities|services|receivers)|get-[\w-]+)$/;

function verb(args: readonly Field[], at = 0): string | null {
  const f = args[at];
  return f ? staticText(f) : null;
}

function pm(args: readonly Field[], command: 'pm' | 'cmd package'): Judgement {
  const sub = verb(args);
  if (sub !== null && PM_READ.test(sub)) return read(`${command} ${sub}`);
  return ask(`${tok(sub ?? args[0]?.text ?? command)}: a ${command} verb that installs, removes or changes packages`);
}

function cmd(args: readonly Field[]): Judgement {
  const service = verb(args);
  const sub = verb(args, 1);
  if (service === '-l') return read('cmd lists services');
  if (service === 'package') return pm(args.slice(1), 'cmd package');
  if (
    (service === 'clipboard' && sub === 'get') ||
    (service === 'location' && sub === 'is-location-enabled') ||
    (service === 'wifi' && sub === 'status')
  )
    return read(`cmd ${service} ${sub}`);
  return ask(`${tok(service ?? 'cmd')}: a cmd service call that may change the device`);
}

const AM_READ = /^(get-config|get-current-user|get-inactive|get-standby-bucket|get-uid-state)$/;

function am(args: readonly Field[]): Judgement {
  if (args.some((a) => /REBOOT|SHUTDOWN|MASTER_CLEAR|FACTORY_RESET/i.test(a.text)))
    return deny(
      `${tok(args.find((a) => /REBOOT|SHUTDOWN|MASTER_CLEAR|FACTORY_RESET/i.test(a.text))!.text)}: reboots, shuts ` +
        'down or factory-resets the device',
    );
  const sub = verb(args);
  if ((sub !== null && AM_READ.test(sub)) || (sub === 'stack' && /^(list|info)$/.test(verb(args, 1) ?? '')))
    return read(`am ${sub}`);
  return ask(`${tok(sub ?? 'am')}: starts, stops or messages apps`);
}

function settings(args: readonly Field[]): Judgement {
  const parsed = parseOptions(args, { long: { user: true }, stopAtOperand: true });
  const rest = parsed.ok ? parsed.operands : args;
  const sub = verb(rest);
  if (sub === 'get' || sub === 'list') return read(`settings ${sub}`);
  const adb = rest.find((a) => staticText(a) !== null && /^adb_(wifi_)?enabled$/.test(a.text));
  if (adb) return deny(`${tok(adb.text)}: would switch off adb, cutting this connection`);
  return ask(`${tok(sub ?? 'settings')}: changes a setting`);
}

const IP_READ_WORDS =
  '-[46sdoj]|-br|-brief|-details|-stats|-oneline|-json|-pretty|addr|address|a|link|l|route|r|show|list|neigh|n|rule';
const IP_READ = new RegExp(`^(${IP_READ_WORDS})$`);

/** The judgement of a framework command, or null when `name` is not one. */
export function judgeFramework(name: string, args: readonly Field[]): Judgement | null {
  const sub = verb(args);
  switch (name) {
    case 'dumpsys':
      return dumpsys(args);
    case 'pm':
      return pm(args, 'pm');
    case 'cmd':
      return cmd(args);
    case 'am':
      return am(args);
    case 'settings':
      return settings(args);
    case 'wm':
      if ((sub === 'size' || sub === 'density') && args.length === 1) return read(`wm ${sub}`);
      return ask(`${tok(sub ?? 'wm')}: changes the display configuration`);
    case 'service':
      if (sub === 'list' || sub === 'check') return read(`service ${sub}`);
      return ask(`${tok(sub ?? 'service')}: calls a system service directly`);
    case 'content':
      if (sub === 'query') return read('content query');
      return ask(`${tok(sub ?? 'content')}: changes a content provider`);
    case 'screencap': {
      const parsed = parseOptions(args, { flags: 'hpj', withArg: 'da' });
      if (parsed.ok && parsed.operands.length === 0) return read('screencap writes the capture to its output');
      const file = parsed.ok ? parsed.operands[0]! : null;
      return ask(`${tok(file?.text ?? (parsed.ok ? '' : parsed.token))}: screencap writes the capture to a file`);
    }
    case 'ip':
      if (args.every((a) => staticText(a) !== null && IP_READ.test(a.text))) return read('ip shows interfaces');
      return ask(`${tok(args.find((a) => !IP_READ.test(a.text))?.text ?? 'ip')}: changes network configuration`);
    case 'ifconfig':
      if (args.length <= 1 && args.every((a) => staticText(a) !== null && !a.text.startsWith('-')))
        return read('ifconfig shows interfaces');
      return ask(`${tok(args[1]?.text ?? args[0]?.text ?? 'ifconfig')}: changes network configuration`);
    default:
      return null;
  }
}
