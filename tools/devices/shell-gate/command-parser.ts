/**
 * Splits a shell command line into every simple command it would run, for the command-level
 * gate: commands joined by `;` `&` `&&` `||` `|` or newlines, inside `( … )`, `$( … )` and
 * backticks (also inside double quotes and `${…}`), with their redirections.
 *
 * Written by hand because the gate must see what the device's sh sees: shell-quote (installed)
 * joins lines separated by a newline into one command and leaves `"$(cmd)"` as plain text, so
 * `echo hi<newline>reboot` would pass as an `echo`. Anything this parser does not fully follow
 * (unterminated quotes, here-documents, arithmetic, stray parentheses, deep nesting) is reported
 * as a problem, and the gate then asks a person instead of trusting the parse.
 */

export interface Word {
  /** The word's literal text; expansions contribute nothing. */
  text: string;
  /** Part of the word is only known at run time ($VAR, $(…), backticks). */
  dynamic: boolean;
}

export interface Redirect {
  op: string;
  target: Word;
}

export interface SimpleCommand {
  words: Word[];
  assignments: Word[];
  redirects: Redirect[];
}

export interface ParsedLine {
  commands: SimpleCommand[];
  problems: string[];
}

const MAX_DEPTH = 12;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

class Parser {
  readonly commands: SimpleCommand[] = [];
  readonly problems: string[] = [];

  constructor(private readonly src: string) {}

  /** Parses commands from `i` until `end` (or the end of input); returns the index after `end`. */
  script(i: number, end: ')' | '`' | null, depth: number): number {
    if (depth > MAX_DEPTH) {
      this.problems.push('nesting too deep to follow');
      return this.src.length;
    }
    const src = this.src;
    let words: Word[] = [];
    let redirects: Redirect[] = [];
    let word: Word | null = null;
    let pendingOp: string | null = null;

    const endWord = () => {
      if (word === null) return;
      if (pendingOp !== null) {
        redirects.push({ op: pendingOp, target: word });
        pendingOp = null;
      } else words.push(word);
      word = null;
    };
    const endCommand = () => {
      endWord();
      if (pendingOp !== null) {
        this.problems.push(`redirection '${pendingOp}' without a target`);
        pendingOp = null;
      }
      if (words.length > 0 || redirects.length > 0) this.commands.push(splitAssignments(words, redirects));
      words = [];
      redirects = [];
    };
    const cur = (): Word => (word ??= { text: '', dynamic: false });

    while (i < src.length) {
      const c = src[i]!;
      if (end === ')' && c === ')') {
        endCommand();
        return i + 1;
      }
      if (end === '`' && c === '`') {
        endCommand();
        return i + 1;
      }
      if (c === ' ' || c === '\t') {
        endWord();
        i++;
      } else if (c === '\n' || c === '\r' || c === ';' || c === '&' || c === '|') {
        endCommand();
        i++;
      } else if (c === '(') {
        endCommand();
        i = this.script(i + 1, ')', depth + 1);
      } else if (c === ')') {
        this.problems.push("unmatched ')'");
        endCommand();
        i++;
      } else if (c === '<' || c === '>') {
        const w = word as Word | null;
        if (w !== null && /^\d+$/.test(w.text) && !w.dynamic)
          word = null; // `2>`: the digits name a file descriptor
        else endWord();
        let op = c;
        const next = src[i + 1];
        if (next === '>' || next === '&' || next === '|' || (c === '<' && next === '<')) op += next;
        if (op === '<<') this.problems.push('here-documents are not followed');
        i += op.length;
        if (src[i] === '-' && op === '<<') i++;
        pendingOp = op;
      } else if (c === '#' && word === null) {
        while (i < src.length && src[i] !== '\n') i++;
      } else if (c === "'") {
        const close = src.indexOf("'", i + 1);
        if (close < 0) {
          this.problems.push('unterminated single quote');
          cur().text += src.slice(i + 1);
          i = src.length;
        } else {
          cur().text += src.slice(i + 1, close);
          i = close + 1;
        }
      } else if (c === '"') {
        i = this.doubleQuoted(i + 1, cur(), depth);
      } else if (c === '\\') {
        if (src[i + 1] !== '\n') cur().text += src[i + 1] ?? '';
        i += 2;
      } else if (c === '$') {
        i = this.dollar(i, cur(), depth);
      } else if (c === '`') {
        cur().dynamic = true;
        i = this.script(i + 1, '`', depth + 1);
      } else {
        cur().text += c;
        i++;
      }
    }
    if (end !== null) this.problems.push(end === ')' ? "unterminated '(' or '$('" : 'unterminated backtick');
    endCommand();
    return i;
  }

  /** A `$…` expansion at `i`; commands inside run, the word becomes dynamic. */
  private dollar(i: number, w: Word, depth: number): number {
    const src = this.src;
    const next = src[i + 1];
    if (next === '(') {
      w.dynamic = true;
      if (src[i + 2] === '(') this.problems.push('arithmetic expansion is not followed');
      return this.script(i + 2, ')', depth + 1);
    }
    if (next === '{') {
      w.dynamic = true;
      let j = i + 2;
      while (j < src.length && src[j] !== '}') {
        if (src[j] === '$') j = this.dollar(j, w, depth);
        else if (src[j] === '`') j = this.script(j + 1, '`', depth + 1);
        else if (src[j] === '\\') j += 2;
        else if (src[j] === '"') j = this.doubleQuoted(j + 1, { text: '', dynamic: true }, depth);
        else if (src[j] === "'") {
          const close = src.indexOf("'", j + 1);
          j = close < 0 ? src.length : close + 1;
        } else j++;
      }
      if (j >= src.length) this.problems.push("unterminated '${'");
      return j + 1;
    }
    if (next !== undefined && /[A-Za-z0-9_?$!#@*-]/.test(next)) {
      w.dynamic = true;
      let j = i + 1;
      if (/[A-Za-z_]/.test(next)) while (j < src.length && /[A-Za-z0-9_]/.test(src[j]!)) j++;
      else j++;
      return j;
    }
    w.text += '$';
    return i + 1;
  }

  /** The inside of "…" from `i`; returns the index after the closing quote. */
  private doubleQuoted(i: number, w: Word, depth: number): number {
    const src = this.src;
    while (i < src.length) {
      const c = src[i]!;
      if (c === '"') return i + 1;
      if (c === '\\') {
        const n = src[i + 1];
        if (n === '$' || n === '`' || n === '"' || n === '\\') w.text += n;
        else if (n !== '\n') w.text += `\\${n ?? ''}`;
        i += 2;
      } else if (c === '$') {
        i = this.dollar(i, w, depth);
      } else if (c === '`') {
        w.dynamic = true;
        i = this.script(i + 1, '`', depth + 1);
      } else {
        w.text += c;
        i++;
      }
    }
    this.problems.push('unterminated double quote');
    return i;
  }
}

function splitAssignments(words: Word[], redirects: Redirect[]): SimpleCommand {
  let k = 0;
  while (k < words.length && ASSIGNMENT.test(words[k]!.text)) k++;
  return { assignments: words.slice(0, k), words: words.slice(k), redirects };
}

export function parseCommandLine(text: string): ParsedLine {
  const parser = new Parser(text);
  parser.script(0, null, 0);
  return { commands: parser.commands, problems: parser.problems };
}
