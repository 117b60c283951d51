/**
 * The command-level gate of shell_execute: every simple command in the line is judged, and the
 * most dangerous verdict decides. `read` runs at once (looks, changes nothing), `ask` waits for a
 * person, `deny` is refused outright (reboots, disk formatting, root shells, recursive deletes of
 * system paths, persistent properties…). Unknown commands ask; a line the parser could not fully
 * follow asks at least. Wrappers (`busybox X`, `env X`, `sh -c '…'`, `eval …`) are judged by what
 * they run.
 */
import { type SimpleCommand, type Word, parseCommandLine } from './command-parser';
import { type Judgement, type Verdict, judgeCommand } from './command-rules';

export type { Judgement, Verdict } from './command-rules';

export interface LineJudgement {
  verdict: Verdict;
  /** Every command's judgement, in the order found. */
  commands: Judgement[];
  /** The judgements that decided the verdict (and the parse problems). */
  reasons: string[];
}

const RANK: Record<Verdict, number> = { read: 0, ask: 1, deny: 2 };

export function worst(a: Verdict, b: Verdict): Verdict {
  return RANK[a] >= RANK[b] ? a : b;
}

const RESERVED = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  'for',
  'in',
  'case',
  'esac',
  'function',
  '{',
  '}',
  '!',
  'time',
  'select',
]);

function show(words: readonly Word[]): string {
  return words
    .map((w) => (w.dynamic ? `${w.text}…` : w.text))
    .join(' ')
    .slice(0, 120);
}

/** Judges one simple command, following wrappers; `depth` bounds nested `sh -c`. */
export function judgeSimple(cmd: SimpleCommand, depth: number): Judgement[] {
  const out: Judgement[] = [];
  let words = cmd.words;
  let reserved = false;
  while (words[0] && !words[0].dynamic && RESERVED.has(words[0].text)) {
    words = words.slice(1);
    reserved = true;
  }
  if (reserved)
    out.push({
      verdict: 'ask',
      reason: 'shell control structures (if/for/while…) are not judged command by command',
      command: show(cmd.words),
    });
  for (const r of cmd.redirects) {
    if (r.op.startsWith('<') || r.op === '>&') continue; // input, here-documents and fd duplication write no file
    if (!r.target.dynamic && r.target.text === '/dev/null') continue;
    out.push({
      verdict: 'ask',
      reason: `writes to the file ${r.target.text || '(computed path)'}`,
      command: show(cmd.words),
    });
  }
  if (words.length > 0) out.push(...judgeWords(words, depth));
  return out;
}

/** Judges argv words; wrappers recurse on the words they run. */
function judgeWords(words: readonly Word[], depth: number): Judgement[] {
  const first = words[0]!;
  const command = show(words);
  if (first.dynamic) return [{ verdict: 'ask', reason: 'the command name is only known when it runs', command }];
  const name = first.text.replace(/^.*\//, '');
  const args = words.slice(1);
  const rest = (from: number): Judgement[] =>
    args.length > from ? judgeWords(args.slice(from), depth) : [{ verdict: 'read', reason: `${name} alone`, command }];

  switch (name) {
    case 'busybox':
    case 'toybox':
    case 'command':
    case 'exec':
    case 'nohup':
    case 'time':
      return rest(0);
    case 'nice':
      return rest(args[0]?.text === '-n' ? 2 : 0);
    case 'timeout': {
      let k = 0;
      while (args[k] && args[k]!.text.startsWith('-')) k++;
      return rest(k + 1);
    }
    case 'env': {
      let k = 0;
      while (args[k] && (args[k]!.text.startsWith('-') || /^[A-Za-z_]\w*=/.test(args[k]!.text))) k++;
      return rest(k);
    }
    case 'xargs':
    case 'run-as': {
      const skip = name === 'run-as' ? 1 : 0;
      let k = skip;
      while (name === 'xargs' && args[k] && args[k]!.text.startsWith('-')) k++;
      return [
        { verdict: 'ask', reason: `${name} runs a command with arguments known only at run time`, command },
        ...(args.length > k ? judgeWords(args.slice(k), depth) : []),
      ];
    }
    case 'sh':
    case 'bash':
    case 'mksh':
    case 'ash':
    case 'dash': {
      const c = args.findIndex((a) => a.text === '-c');
      const script = c >= 0 ? args[c + 1] : undefined;
      if (!script || script.dynamic)
        return [{ verdict: 'ask', reason: `${name} runs a script that cannot be read here`, command }];
      return judgeNested(script.text, depth);
    }
    case 'eval': {
      if (args.some((a) => a.dynamic))
        return [{ verdict: 'ask', reason: 'eval of text known only at run time', command }];
      return judgeNested(args.map((a) => a.text).join(' '), depth);
    }
    default:
      return [judgeCommand(name, args, command)];
  }
}

function judgeNested(script: string, depth: number): Judgement[] {
  if (depth >= 4) return [{ verdict: 'ask', reason: 'shells nested too deep to judge', command: script.slice(0, 120) }];
  const parsed = parseCommandLine(script);
  const out = parsed.commands.flatMap((c) => judgeSimple(c, depth + 1));
  for (const p of parsed.problems)
    out.push({
      verdict: 'ask',
      reason: `could not fully read the nested script (${p})`,
      command: script.slice(0, 120),
    });
  return out;
}

/** The verdict on a whole command line. */
export function judgeCommandLine(line: string): LineJudgement {
  const parsed = parseCommandLine(line);
  const commands = parsed.commands.flatMap((c) => judgeSimple(c, 0));
  for (const p of parsed.problems)
    commands.push({
      verdict: 'ask',
      reason: `could not fully read the command line (${p})`,
      command: line.slice(0, 120),
    });
  if (commands.length === 0) commands.push({ verdict: 'read', reason: 'nothing to run', command: '' });
  const verdict = commands.reduce<Verdict>((v, j) => worst(v, j.verdict), 'read');
  const reasons = commands
    .filter((j) => j.verdict === verdict && verdict !== 'read')
    .map((j) => `${j.command ? `\`${j.command}\`: ` : ''}${j.reason}`);
  return { verdict, commands, reasons };
}
