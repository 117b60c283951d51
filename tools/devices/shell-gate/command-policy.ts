/**
 * The command-level gate of shell_execute. The line is parsed as mksh would run it
 * (command-parser.ts) and every part that can act is judged: each simple command in every list,
 * pipeline, subshell, function, loop and substitution (`$(…)`, backticks, `${ …;}`, here-document
 * bodies), every redirection that can write, every variable assignment, and the commands that
 * wrappers run (`busybox X`, `env X`, `nice X`, `xargs X`, `find -exec X`, `sh -c '…'`, `eval …`).
 * The most dangerous verdict decides: `read` runs at once, `ask` waits for a person, `deny` is
 * refused. Directories entered with `cd` are followed, so relative paths are checked against every
 * directory the command may be in.
 */
import type { Command, Redirect, Script, SimpleCommand, Word, WordPart } from './command-ast';
import { parseCommandLine } from './command-parser';
import { judgeCommand } from './command-rules';
import { type Cwds, directoriesOf, isDevNull } from './device-paths';
import { type Judgement, type Verdict, ask, read, tok, worst } from './judgement';
import { runWrapper } from './wrappers';
import { type Field, argvOf, atomsOf, fieldOf, staticText } from './word-fields';

export type { Judgement, Verdict } from './judgement';
export { worst } from './judgement';

export interface LineJudgement {
  verdict: Verdict;
  /** Every judgement made, in the order found. */
  judgements: Judgement[];
  /** The reasons of the judgements that decided the verdict. */
  reasons: string[];
  /** The names of the commands judged (wrappers and what they run), for checking the parse against a shell. */
  commands: string[];
}

const MAX_CWDS = 32;
const MAX_NESTED_SHELLS = 4;
/** Directories the system's commands are in; a program named by any other path is the user's own. */
const SYSTEM_BIN = /^\/(system|system_ext|product|vendor|odm)\/x?bin$|^\/(bin|sbin)$|^\/apex\/[\w.@-]+\/bin$/;
/** Variables whose value changes where `cd` goes. */
const CD_VARIABLES = new Set(['CDPATH', 'HOME', 'PWD', 'OLDPWD']);
/**
 * The shell's own variables (PATH, IFS, ENV, CDPATH, HISTFILE…) and every variable Android exports
 * (LD_*, ANDROID_*, BOOTCLASSPATH…) are upper case: setting one changes how later commands run. A
 * name with a lower-case letter is a plain shell variable (exporting it asks), and only its uses matter.
 */
const plainVariable = (name: string): boolean => /[a-z]/.test(name);

function normalizeDir(dir: string): string {
  const out: string[] = [];
  for (const part of dir.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

export class LineJudge {
  cwds: Cwds = ['/'];
  readonly judgements: Judgement[] = [];
  readonly commands: string[] = [];
  private shells = 0;

  add(j: Judgement): void {
    this.judgements.push(j);
  }

  script(s: Script): void {
    for (const pipeline of s.pipelines) for (const c of pipeline) this.command(c);
  }

  private command(c: Command): void {
    switch (c.type) {
      case 'simple':
        return this.simple(c);
      case 'function':
        this.add(ask(`${tok(c.name)}: defines a shell function (which may stand in for any command)`));
        // Its body runs later, from any directory; and calling it may change the directory.
        this.cwds = null;
        this.command(c.body);
        this.cwds = null;
        return;
      case 'for':
        if (c.keyword === 'select') this.add(ask(`${tok('select')}: reads a choice from its input`));
        else if (!plainVariable(c.variable))
          this.add(ask(`${tok(c.variable)}: a for loop sets this shell or environment variable`));
        this.words(c.words);
        this.script(c.body);
        this.redirects(c.redirects);
        return;
      default:
        this.words(c.words);
        for (const body of c.bodies) this.script(body);
        this.redirects(c.redirects);
    }
  }

  private words(words: readonly Word[]): void {
    for (const w of words) this.parts(w.parts);
  }

  /** Expansions: the commands they run, and the variables they assign (`${x:=v}`). */
  private parts(parts: readonly WordPart[]): void {
    for (const p of parts) {
      if (p.kind !== 'expansion') continue;
      if (p.assigns && !plainVariable(p.assigns))
        this.add(ask(`${tok(p.spelling)}: assigns the variable ${p.assigns} while expanding`));
      for (const s of p.scripts) this.script(s);
    }
  }

  private redirects(redirects: readonly Redirect[]): void {
    for (const r of redirects) {
      this.parts(r.target.parts);
      if (r.body) this.parts(r.body);
      const label = `${r.fd ?? ''}${r.op}`;
      if (r.op === '<' || r.op.startsWith('<<')) continue;
      const target = fieldOf(atomsOf(r.target));
      if (r.op === '<&' || r.op === '>&') {
        // mksh takes only a descriptor number or `-` here; anything else is an error, but is not trusted.
        if (/^([0-9]|-)$/.test(staticText(target) ?? '')) continue;
        this.add(ask(`${tok(label)}: a redirection whose target is not a file descriptor number`));
      } else if (!isDevNull(target, this.cwds)) this.add(ask(`writes a file through the redirection ${tok(label)}`));
    }
  }

  private simple(c: SimpleCommand): void {
    for (const a of c.assignments) {
      this.parts(a.value.parts);
      if (c.words.length > 0)
        this.add(ask(`${tok(`${a.name}=`)}: sets the environment variable ${a.name} for the command it runs`));
      else if (!plainVariable(a.name))
        this.add(ask(`${tok(`${a.name}=`)}: sets the variable ${a.name}, which changes how later commands run`));
      if (CD_VARIABLES.has(a.name)) this.cwds = null;
    }
    this.redirects(c.redirects);
    this.words(c.words);
    if (c.words.length === 0) return;
    const expanded = argvOf(c.words, true);
    this.argv(expanded.fields, 0);
    // Brace expansion can be switched off (`set +o braceexpand`); the words as written are judged too.
    if (expanded.braced) this.argv(argvOf(c.words, false).fields, 0);
  }

  /** Judges a command given as fields: wrappers recurse on the command they run. */
  argv(fields: readonly Field[], depth: number): void {
    const first = fields[0];
    if (!first) return;
    if (depth > 8) return this.add(ask('commands nested too deep to judge'));
    const args = fields.slice(1);
    const text = staticText(first);
    if (text === null) {
      this.add(ask(`${tok(first.text)}: the command name is only known when it runs`));
      // An expansion may also be empty, and then the next word is the command.
      if (first.multi) this.argv(args, depth + 1);
      return;
    }
    let name = text;
    if (text.includes('/')) {
      name = text.slice(text.lastIndexOf('/') + 1);
      const dir = text.slice(0, text.lastIndexOf('/'));
      if (!text.startsWith('/') || !SYSTEM_BIN.test(normalizeDir(dir))) {
        this.commands.push(name);
        this.add(ask(`${tok(text)}: runs a program that is not one of the system's commands`));
        const j = judgeCommand(name, args, this.cwds);
        if (j.verdict === 'deny') this.add(j);
        return;
      }
    }
    this.commands.push(name);
    if (name === 'cd') return this.cd(args);
    if (runWrapper(this, name, args, depth)) return;
    this.add(judgeCommand(name, args, this.cwds));
  }

  /** `cd`: the directories the line may now be in grow by where it may have gone. */
  private cd(args: readonly Field[]): void {
    this.add(read('cd changes the directory'));
    const rest = args.filter((a) => !/^-[LPe@]+$/.test(staticText(a) ?? ''));
    const target = rest[0];
    if (target && staticText(target) === '-') return; // back to a directory already counted
    const dirs = target ? directoriesOf(target, this.cwds) : null;
    if (!dirs || this.cwds === null) this.cwds = null;
    else {
      const all = [...new Set([...this.cwds, ...dirs])];
      this.cwds = all.length > MAX_CWDS ? null : all;
    }
  }

  /** A script run by `sh -c` or `eval`, judged like the line itself. */
  nested(text: string, what: string): void {
    if (this.shells >= MAX_NESTED_SHELLS) return this.add(ask(`${tok(what)}: shells nested too deep to judge`));
    this.shells++;
    const parsed = parseCommandLine(text);
    this.script(parsed.script);
    for (const p of parsed.problems) this.add(ask(`${tok(what)}: could not fully read its script (${p})`));
    this.shells--;
  }
}

/** The verdict on a whole command line. */
export function judgeCommandLine(line: string): LineJudgement {
  const parsed = parseCommandLine(line);
  const judge = new LineJudge();
  judge.script(parsed.script);
  for (const p of parsed.problems) judge.add(ask(`could not fully read the command line (${p})`));
  if (judge.judgements.length === 0) judge.add(read('nothing to run'));
  const verdict = judge.judgements.reduce<Verdict>((v, j) => worst(v, j.verdict), 'read');
  const reasons =
    verdict === 'read' ? [] : [...new Set(judge.judgements.filter((j) => j.verdict === verdict).map((j) => j.reason))];
  return { verdict, judgements: judge.judgements, reasons, commands: judge.commands };
}
