/**
 * What one command does, for the gate: refused outright (reboots, formatting, root shells, removing
 * or recursively re-permissioning a protected root on any spelling of its path, raw device
 * writes), read-only (the allow-list in read-only-commands.ts and framework-commands.ts), or
 * otherwise asked about. Rules are about Android's toybox and framework commands as `adb shell`
 * runs them (mksh, cwd `/`, the shell user).
 */
import { type Cwds, checkTarget } from './device-paths';
import { judgeFramework } from './framework-commands';
import { type Judgement, ask, deny, read, tok } from './judgement';
import { unknownOrWriter } from './known-writers';
import { judgeReadOnly } from './read-only-commands';
import { type Field, fieldOf, staticText } from './word-fields';

const DENIED: Record<string, string> = {
  reboot: 'restarts the device',
  shutdown: 'powers the device off',
  poweroff: 'powers the device off',
  halt: 'powers the device off',
  format: 'formats storage',
  fdisk: 'edits partition tables',
  sgdisk: 'edits partition tables',
  parted: 'edits partition tables',
  blkdiscard: 'erases storage blocks',
  mke2fs: 'formats storage',
  make_ext4fs: 'formats storage',
  newfs_msdos: 'formats storage',
  mkswap: 'formats storage',
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

const SYSTEM_PROCESSES = /^(1|-1|init|system_server|zygote|zygote64|surfaceflinger|adbd|servicemanager|vold)$/;

/**
 * rm, chmod, chown, chgrp: options as getopt reads them anywhere before `--` (`-rf`, `-Rf`,
 * `-r -f`, `--recursive`, `--rec`, `--force`); an expansion that may become an option counts as
 * `-r`. Recursive (or, for rm, forced) on a protected root is refused, and so is recursive on a
 * path the gate cannot resolve from the text.
 */
function removal(name: string, args: readonly Field[], cwds: Cwds): Judgement {
  const rm = name === 'rm';
  let recursive = false;
  let force = false;
  let ended = false;
  const operands: Field[] = [];
  for (const a of args) {
    const text = staticText(a);
    if (!ended && text === '--') ended = true;
    else if (!ended && text === null && a.maybeOption) {
      recursive = true;
      operands.push(a);
    } else if (!ended && text?.startsWith('--')) {
      const long = text.slice(2).split('=')[0]!;
      if (long !== '' && 'recursive'.startsWith(long)) recursive = true;
      if (rm && long !== '' && 'force'.startsWith(long)) force = true;
    } else if (!ended && text !== null && text.length > 1 && text.startsWith('-')) {
      if (rm ? /[rR]/.test(text) : text.includes('R')) recursive = true;
      if (rm && text.includes('f')) force = true;
    } else operands.push(a);
  }
  // chmod's MODE and chown's OWNER are checked as paths too: as one they name nothing protected, and
  // skipping them would skip the first path when the mode is written like an option (`-w`) or given by `--reference`.
  const what = rm ? 'rm' : name;
  for (const t of operands) {
    const check = checkTarget(t, cwds);
    if (check.kind === 'protected' && (recursive || (rm && force))) {
      const scope = check.contents ? `everything in ${check.root}` : check.root;
      return deny(
        `${tok(t.text)}: ${recursive ? 'recursive ' : 'forced '}${what} of a system or user-data root (${scope})`,
      );
    }
    if (check.kind === 'unresolvable' && recursive)
      return deny(`${tok(t.text)}: recursive ${what} of a path that cannot be resolved from the text`);
  }
  return ask(rm ? `${tok('rm')}: deletes files` : `${tok(name)}: changes file permissions or owners`);
}

const DD_OPERANDS = new Set([
  'if',
  'bs',
  'ibs',
  'obs',
  'cbs',
  'count',
  'skip',
  'seek',
  'iflag',
  'oflag',
  'conv',
  'status',
]);

/** dd: `of=` writes a file; one under /dev (but /dev/null) is a raw device, refused. */
function dd(args: readonly Field[], cwds: Cwds): Judgement {
  let output: Field | null = null;
  for (const a of args) {
    const text = staticText(a);
    if (text === null) return deny(`${tok(a.text)}: a dd operand only known when it runs (it may name a raw device)`);
    const m = /^([a-z]+)=/.exec(text);
    if (!m || (m[1] !== 'of' && !DD_OPERANDS.has(m[1]!)))
      return ask(`${tok(text)}: a dd operand not known to be read-only`);
    if (m[1] === 'of') output = fieldOf(a.atoms.slice(3));
  }
  if (!output) return read('dd copies to its output');
  const check = checkTarget(output, cwds);
  if (check.kind === 'ok' && check.paths.some((p) => p.startsWith('/dev/') && p !== '/dev/null'))
    return deny(`${tok('of=')}: dd writes a raw device`);
  return ask(`${tok('of=')}: dd writes the file it names`);
}

export function judgeCommand(name: string, args: readonly Field[], cwds: Cwds): Judgement {
  if (name.startsWith('mkfs')) return deny(`${tok(name)}: formats storage`);
  const denied = DENIED[name];
  if (denied) return deny(`${tok(name)}: ${denied}`);
  const texts = args.map((a) => a.text);

  switch (name) {
    case 'rm':
    case 'chmod':
    case 'chown':
    case 'chgrp':
      return removal(name, args, cwds);
    case 'dd':
      return dd(args, cwds);
    case 'setprop': {
      const key = args[0];
      if (!key || staticText(key) === null || /^(persist\.|ctl\.|sys\.powerctl|ro\.)/.test(key.text))
        return deny(`${tok(key?.text ?? 'setprop')}: sets a persistent or system-control property`);
      return ask(`${tok(key.text)}: sets a system property`);
    }
    case 'svc':
      if (texts[0] === 'power' && /^(reboot|shutdown)$/.test(texts[1] ?? ''))
        return deny(`${tok(texts[1]!)}: restarts or powers off the device`);
      return ask(`${tok(texts[0] ?? 'svc')}: changes a system service`);
    case 'kill':
    case 'killall':
    case 'pkill': {
      const victim = texts.find((t) => SYSTEM_PROCESSES.test(t));
      if (victim) return deny(`${tok(victim)}: kills a process the system needs`);
      return ask(`${tok(name)}: kills processes`);
    }
    case 'mount':
      if (args.length === 0) return read('mount lists mounts');
      return deny(`${tok('mount')}: changes mounts`);
  }
  return judgeFramework(name, args) ?? judgeReadOnly(name, args) ?? unknownOrWriter(name);
}
