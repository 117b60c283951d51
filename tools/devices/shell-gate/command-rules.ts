/**
 * What each device command does, for the gate: commands that only look (read), commands that
 * are refused outright (deny), and for the rest (ask) the sub-commands that only look. Rules are
 * about Android's toybox and framework commands as `adb shell` runs them (cwd `/`, user shell).
 */
import type { Word } from './command-parser';

export type Verdict = 'read' | 'ask' | 'deny';

export interface Judgement {
  verdict: Verdict;
  /** What about this command led to the verdict. */
  reason: string;
  /** The command as words, for messages. */
  command: string;
}

const READ_ONLY = new Set([
  'ls',
  'cat',
  'echo',
  'printf',
  'pwd',
  'cd',
  'id',
  'whoami',
  'uptime',
  'uname',
  'df',
  'du',
  'free',
  'ps',
  'top',
  'pidof',
  'getprop',
  'dumpsys',
  'head',
  'tail',
  'wc',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'sort',
  'uniq',
  'cut',
  'tr',
  'grep',
  'egrep',
  'fgrep',
  'stat',
  'file',
  'which',
  'basename',
  'dirname',
  'readlink',
  'realpath',
  'true',
  'false',
  ':',
  'sleep',
  'exit',
  'test',
  '[',
  'expr',
  'seq',
  'printenv',
  'nproc',
  'getenforce',
  'netstat',
  'ping',
  'cmp',
  'diff',
  'od',
  'hexdump',
  'xxd',
  'strings',
  'lsof',
  'vmstat',
  'iostat',
  'lsmod',
  'ss',
]);

const DENIED: Record<string, string> = {
  reboot: 'restarts the device',
  shutdown: 'powers the device off',
  poweroff: 'powers the device off',
  halt: 'powers the device off',
  dd: 'writes raw blocks (can destroy partitions)',
  format: 'formats storage',
  fdisk: 'edits partition tables',
  sgdisk: 'edits partition tables',
  parted: 'edits partition tables',
  blkdiscard: 'erases storage blocks',
  mke2fs: 'formats storage',
  make_ext4fs: 'formats storage',
  newfs_msdos: 'formats storage',
  flash_image: 'flashes partitions',
  erase_image: 'erases partitions',
  wipe: 'wipes device data',
  vdc: 'controls storage encryption and volumes',
  fastboot: 'flashes the device',
  su: 'opens a root shell',
  sudo: 'runs commands as root',
  setenforce: 'changes SELinux enforcement',
  start: 'starts system services (without arguments: the whole Android framework)',
  stop: 'stops system services (without arguments: the whole Android framework)',
  remount: 'remounts system partitions writable',
};

/** Paths whose recursive removal or permission change would break the device or wipe user data. */
const PROTECTED = [
  /^\/+\*?$/,
  /^\/+(system|system_ext|vendor|product|odm|oem|apex|boot|proc|sys|dev|bin|etc|sbin|metadata|persist|mnt|cache|config|storage|sdcard|data|acct|debug_ramdisk|linkerconfig|lib|lib64|init.*)(\/+\*?)?\/*$/,
  /^\/+data\/+(data|app|system|system_ce|system_de|misc|user|user_de|media|vendor)(\/+\*?)?\/*$/,
  /^\/+(storage\/+emulated\/+0|storage\/+emulated|storage\/+self\/+primary)(\/+\*?)?\/*$/,
  /^(\.|\.\.|\*|\.\/\*|~|~\/.*)$/,
];

function isProtected(word: Word): boolean {
  return word.dynamic || PROTECTED.some((re) => re.test(word.text));
}

const judge = (verdict: Judgement['verdict'], reason: string, command: string): Judgement => ({
  verdict,
  reason,
  command,
});

export function judgeCommand(name: string, args: readonly Word[], command: string): Judgement {
  const texts = args.map((a) => a.text);
  const flags = texts.filter((t) => t.startsWith('-'));
  const operands = args.filter((a) => !a.text.startsWith('-') || a.dynamic);
  const sub = texts[0];

  if (name.startsWith('mkfs')) return judge('deny', 'formats storage', command);
  const denied = DENIED[name];
  if (denied) return judge('deny', denied, command);

  switch (name) {
    case 'rm':
    case 'chmod':
    case 'chown':
    case 'chgrp': {
      const recursive = flags.some((f) => /^-[a-zA-Z]*[rR]/.test(f) || f === '--recursive');
      const forced = name === 'rm' && flags.some((f) => /^-[a-zA-Z]*f/.test(f) || f === '--force');
      const targets = name === 'rm' ? operands : operands.slice(1);
      if ((recursive || forced) && targets.some(isProtected))
        return judge('deny', `${name} ${recursive ? 'recursively ' : ''}on a system or user-data root`, command);
      return judge('ask', name === 'rm' ? 'deletes files' : 'changes file permissions', command);
    }
    case 'setprop': {
      const key = texts[0] ?? '';
      if (args[0]?.dynamic || /^(persist\.|ctl\.|sys\.powerctl|ro\.)/.test(key))
        return judge('deny', 'sets a persistent or system-control property', command);
      return judge('ask', 'sets a system property', command);
    }
    case 'svc':
      if (sub === 'power' && /^(reboot|shutdown)$/.test(texts[1] ?? ''))
        return judge('deny', 'restarts or powers off the device', command);
      return judge('ask', 'changes a system service', command);
    case 'am':
      if (texts.some((t) => /REBOOT|SHUTDOWN|MASTER_CLEAR|FACTORY_RESET/i.test(t)))
        return judge('deny', 'reboots, shuts down or factory-resets the device', command);
      return judge('ask', 'starts, stops or messages apps', command);
    case 'kill':
    case 'killall':
    case 'pkill':
      if (
        texts.some(
          (t) => t === '1' || t === '-1' || /^(init|system_server|zygote|zygote64|surfaceflinger|adbd)$/.test(t),
        )
      )
        return judge('deny', 'kills a process the system needs', command);
      return judge('ask', 'kills processes', command);
    case 'mount':
      if (args.length === 0) return judge('read', 'lists mounts', command);
      return judge('deny', 'changes mounts', command);
    case 'settings':
      if (sub === 'get' || sub === 'list') return judge('read', `settings ${sub}`, command);
      if (texts.includes('adb_enabled') || texts.includes('adb_wifi_enabled'))
        return judge('deny', 'would switch off adb, cutting this connection', command);
      return judge('ask', 'changes a setting', command);
    case 'pm':
      if (sub !== undefined && /^(list|path|dump|get-install-location|get-max-users|list-\w+)$/.test(sub))
        return judge('read', `pm ${sub}`, command);
      return judge('ask', 'installs, removes or changes packages', command);
    case 'cmd':
      if (
        (sub === 'package' && /^(list|path|resolve-activity|query-\w+)$/.test(texts[1] ?? '')) ||
        (sub === 'clipboard' && texts[1] === 'get')
      )
        return judge('read', `cmd ${sub} ${texts[1]}`, command);
      return judge('ask', `cmd ${sub ?? ''} may change the system`, command);
    case 'wm':
      if ((sub === 'size' || sub === 'density') && args.length === 1) return judge('read', `wm ${sub}`, command);
      return judge('ask', 'changes the display configuration', command);
    case 'date':
      if (args.every((a) => !a.dynamic && (a.text.startsWith('+') || a.text === '-u' || a.text === '-R')))
        return judge('read', 'prints the date', command);
      return judge('ask', 'may set the clock', command);
    case 'logcat':
      if (flags.some((f) => /^-[a-zA-Z]*[cGPf]/.test(f) || /^--(clear|file|buffer-size|prune)/.test(f)))
        return judge('ask', 'clears or reconfigures the log, or writes a file', command);
      return judge('read', 'reads the log', command);
    case 'find':
      if (texts.some((t) => /^-(delete|exec|execdir|ok|okdir|fprint\w*|fls)$/.test(t)))
        return judge('ask', 'find that deletes, writes or runs commands', command);
      return judge('read', 'finds files', command);
    case 'dmesg':
      if (flags.some((f) => /^-[a-zA-Z]*[cC]/.test(f))) return judge('ask', 'clears the kernel log', command);
      return judge('read', 'reads the kernel log', command);
    case 'ip':
    case 'ifconfig':
      if (
        name === 'ifconfig'
          ? args.length <= 1
          : args.every((a) => /^(-\w+|addr|address|a|link|l|route|r|show|list|neigh|n|rule)$/.test(a.text))
      )
        return judge('read', `${name} shows interfaces`, command);
      return judge('ask', 'changes network configuration', command);
    case 'service':
      if (sub === 'list' || sub === 'check') return judge('read', `service ${sub}`, command);
      return judge('ask', 'calls a system service directly', command);
    case 'content':
      if (sub === 'query') return judge('read', 'content query', command);
      return judge('ask', 'changes a content provider', command);
    case 'screencap':
      if (operands.length === 0) return judge('read', 'captures the screen to the output', command);
      return judge('ask', 'writes a screen capture to a file', command);
    default:
      if (READ_ONLY.has(name)) return judge('read', `${name} only reads`, command);
      return judge('ask', `${name} is not known to be read-only`, command);
  }
}
