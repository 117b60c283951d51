/**
 * Commands that run other commands, judged by what they run: `busybox`/`toybox X`, `command X`,
 * `builtin X`, `nice`, `timeout`, `time`, `env` (whose `NAME=value` words are assignments),
 * `nohup`, `exec`, `run-as`, `xargs` (the command gets arguments known only at run time),
 * `find -exec`, and shells (`sh -c '…'`, `eval …`, `. file`), whose scripts are parsed and judged
 * like the line. Running a nested shell, `exec`, `eval` and sourcing are never read-only themselves.
 */
import type { LineJudge } from './command-policy';
import { judgeCommand } from './command-rules';
import { ask, read, tok } from './judgement';
import { type Field, fieldOf, staticText } from './word-fields';

const SHELLS = new Set(['sh', 'mksh', 'bash', 'ash', 'dash', 'ksh', 'zsh']);

/** A field standing for arguments only known at run time (xargs' input). */
function unknownArguments(spelling: string): Field {
  return fieldOf([{ exp: { kind: 'expansion', spelling, quoted: false, scripts: [] } }]);
}

/** The number of leading words that are options (per `withArg`, options taking a value in the next word). */
function optionsLength(args: readonly Field[], withArg: RegExp, flag: RegExp): number | null {
  let i = 0;
  while (i < args.length) {
    const t = staticText(args[i]!);
    if (t === null) return args[i]!.maybeOption ? null : i;
    if (t === '--') return i + 1;
    if (!t.startsWith('-') || t === '-') return i;
    if (withArg.test(t)) i += 2;
    else if (flag.test(t)) i++;
    else return null;
  }
  return i;
}

function shell(judge: LineJudge, name: string, args: readonly Field[]): void {
  let runsScript = false;
  let i = 0;
  for (; i < args.length; i++) {
    const t = staticText(args[i]!);
    if (t === null) break;
    if (t === '--') {
      i++;
      break;
    }
    if (!/^[-+][A-Za-z]+$/.test(t)) break;
    if (t.startsWith('-') && t.includes('c')) runsScript = true;
    if (t.endsWith('o')) i++; // -o OPTION
  }
  if (!runsScript) return judge.add(ask(`${tok(name)}: runs a shell that reads commands from a file or its input`));
  const script = args[i];
  const text = script ? staticText(script) : null;
  if (text === null) return judge.add(ask(`${tok(`${name} -c`)}: runs a script only known when it runs`));
  judge.add(ask(`${tok(`${name} -c`)}: runs a nested shell`));
  judge.nested(text, `${name} -c`);
}

function xargs(judge: LineJudge, args: readonly Field[], depth: number): void {
  let replace: string | null = null;
  let i = 0;
  for (; i < args.length; i++) {
    const t = staticText(args[i]!);
    if (t === null) {
      if (args[i]!.maybeOption) return judge.add(ask(`${tok(args[i]!.text)}: may expand to an xargs option`));
      break;
    }
    if (t === '--') {
      i++;
      break;
    }
    if (!t.startsWith('-')) break;
    const m = /^(-[adEILnPs]|--(arg-file|delimiter|eof|max-lines|max-args|max-procs|max-chars|replace))(=?)(.*)$/.exec(
      t,
    );
    if (m) {
      const value = m[4] || m[3] ? m[4]! : (staticText(args[++i] ?? fieldOf([])) ?? '');
      if (m[1] === '-I' || m[1] === '--replace') replace = value || '{}';
    } else if (/^-i/.test(t)) replace = t.slice(2) || '{}';
    else if (!/^(-[0prtxo]+|-[el]\S*|--(null|interactive|no-run-if-empty|verbose|exit|open-tty))$/.test(t))
      return judge.add(ask(`${tok(t)}: an xargs option not known to be read-only`));
  }
  const command = args.slice(i);
  if (command.length === 0) return judge.add(read('xargs echoes its input'));
  const input = unknownArguments('(xargs input)');
  const fields = replace ? command.map((f) => (f.text.includes(replace!) ? input : f)) : [...command, input];
  judge.argv(fields, depth + 1);
}

/** find's `-exec CMD… ;` (and -execdir, -ok, -okdir): CMD with `{}` standing for a path it found. */
function findExec(judge: LineJudge, args: readonly Field[], depth: number): void {
  const found: Field = { ...unknownArguments('{}'), multi: false, maybeOption: false };
  for (let i = 0; i < args.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(staticText(args[i]!) ?? '')) continue;
    let end = i + 1;
    while (end < args.length && !/^[;+]$/.test(staticText(args[end]!) ?? '')) end++;
    judge.argv(
      args.slice(i + 1, end).map((f) => (f.text.includes('{}') ? found : f)),
      depth + 1,
    );
    i = end;
  }
}

/** Judges `name args` when `name` is a wrapper, and says whether it was one. */
export function runWrapper(judge: LineJudge, name: string, args: readonly Field[], depth: number): boolean {
  const rest = (from: number | null, alone: string) => {
    if (from === null) judge.add(ask(`${tok(name)}: options not known to be read-only`));
    else if (from >= args.length) judge.add(read(alone));
    else judge.argv(args.slice(from), depth + 1);
  };
  switch (name) {
    case 'busybox':
    case 'toybox':
    case 'builtin':
    case 'time':
      rest(0, `${name} alone`);
      return true;
    case 'command': {
      const n = optionsLength(args, /^$/, /^-[pvV]+$/);
      if (n !== null && args.slice(0, n).some((a) => /[vV]/.test(a.text)))
        judge.add(read('command -v looks a name up'));
      else rest(n, 'command alone');
      return true;
    }
    case 'nice':
      rest(optionsLength(args, /^-n$/, /^(-n\S+|-\d+|--adjustment=\S+)$/), 'nice prints the niceness');
      return true;
    case 'timeout': {
      const n = optionsLength(
        args,
        /^-[sk]$/,
        /^(-[sk]\S+|-v|--preserve-status|--foreground|--(signal|kill-after)=\S+)$/,
      );
      rest(n === null ? null : n + 1, 'timeout without a command');
      return true;
    }
    case 'nohup':
      judge.add(ask(`${tok('nohup')}: may write nohup.out`));
      rest(0, 'nohup alone');
      return true;
    case 'exec':
      if (args.length === 0) judge.add(read('exec alone only applies its redirections'));
      else {
        judge.add(ask(`${tok('exec')}: replaces the shell with another program`));
        rest(optionsLength(args, /^-a$/, /^-[cl]+$/), 'exec alone');
      }
      return true;
    case 'run-as':
      judge.add(ask(`${tok('run-as')}: runs a command as an app`));
      if (args.length > 1) judge.argv(args.slice(1), depth + 1);
      return true;
    case 'env': {
      let i = 0;
      for (; i < args.length; i++) {
        const a = args[i]!;
        const t = staticText(a);
        if (t === null && a.maybeOption) {
          judge.add(ask(`${tok(a.text)}: may expand to an env option or assignment`));
          return true;
        }
        if (t === null) break;
        if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) {
          const v = t.slice(0, t.indexOf('='));
          judge.add(ask(`${tok(`${v}=`)}: sets the environment variable ${v} for the command it runs`));
        } else if (/^(-i|-0|--ignore-environment|--null|-)$/.test(t)) continue;
        else if (/^(-u|--unset)$/.test(t)) i++;
        else if (/^(-u\S+|--unset=\S+)$/.test(t)) continue;
        else if (t.startsWith('-')) {
          judge.add(ask(`${tok(t)}: an env option not known to be read-only`));
          return true;
        } else break;
      }
      rest(i, 'env prints the environment');
      return true;
    }
    case 'xargs':
      xargs(judge, args, depth);
      return true;
    case 'find':
      judge.add(judgeCommand('find', args, judge.cwds));
      findExec(judge, args, depth);
      return true;
    case 'eval': {
      const dynamic = args.find((a) => staticText(a) === null);
      if (dynamic) judge.add(ask(`${tok(dynamic.text)}: eval of text only known when it runs`));
      else {
        judge.add(ask(`${tok('eval')}: evaluates its arguments as a new command line`));
        judge.nested(args.map((a) => a.text).join(' '), 'eval');
      }
      return true;
    }
    case '.':
    case 'source':
      judge.add(ask(`${tok(name)}: runs the commands of a script file`));
      judge.cwds = null;
      return true;
    default:
      if (!SHELLS.has(name)) return false;
      shell(judge, name, args);
      return true;
  }
}
