/**
 * A hand-written parser for the device shell.
 *
 * Why not `shell-quote`: it splits `$(id)` into `$`, `(`, `id`, `)`, keeps backticks as plain
 * text, drops whether text was quoted (so `"$(x)"` and `$(x)` look alike), and splits `2>` into
 * `2` and `>`. Injection checks depend on exactly those distinctions, so the device parses like
 * sh does: quotes, backslashes, `;` `&` `&&` `||` `|` newlines, redirections, `$(…)`, backticks,
 * `$VAR`/`${VAR}`, `( … )` subshells and `#` comments. Not supported (they parse as plain words):
 * `if/for/while/case`, functions, globbing, `$((…))` (a syntax error here).
 */
import type { AndOrList, Command, Pipeline, Redirect, RedirectOp, Script, SimpleCommand, Word, WordPart } from './ast';

export class ShellSyntaxError extends Error {
  override readonly name = 'ShellSyntaxError';
}

export function parseScript(source: string): Script {
  const parser = new Parser(source);
  const script = parser.script(null);
  if (!parser.atEnd()) throw new ShellSyntaxError(`unexpected '${parser.peek()}'`);
  return script;
}

/**
 * Whether `source` stops inside a quote, `$(`, `${` or backquote: a shell reading lines from its
 * input then reads the next line as part of the same command (sh's PS2 continuation), rather than
 * running half of it.
 */
export function needsMoreInput(source: string): boolean {
  try {
    parseScript(source);
    return false;
  } catch (err) {
    return err instanceof ShellSyntaxError && err.message.startsWith('unterminated');
  }
}

const BLANKS = ' \t';
const WORD_BREAKS = ' \t\n;&|<>()';
const REDIRECT = /^(\d*)(>>|>&|<&|>\||>|<)/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

class Parser {
  private pos = 0;

  constructor(private readonly src: string) {}

  atEnd(): boolean {
    return this.pos >= this.src.length;
  }

  peek(offset = 0): string {
    return this.src[this.pos + offset] ?? '';
  }

  script(terminator: ')' | null): Script {
    const lists: AndOrList[] = [];
    for (;;) {
      this.skipSeparators();
      if (this.atEnd() || (terminator && this.peek() === terminator)) return lists;
      lists.push(this.andOr());
      this.skipBlanks();
      const c = this.peek();
      if (c === ';' || c === '\n' || (c === '&' && this.peek(1) !== '&')) {
        this.pos++;
        continue;
      }
      if (this.atEnd() || (terminator && c === terminator)) return lists;
      throw new ShellSyntaxError(`unexpected '${c}'`);
    }
  }

  private andOr(): AndOrList {
    const list: AndOrList = { first: this.pipeline(), rest: [] };
    for (;;) {
      this.skipBlanks();
      const op = this.src.startsWith('&&', this.pos) ? '&&' : this.src.startsWith('||', this.pos) ? '||' : null;
      if (!op) return list;
      this.pos += 2;
      this.skipBlanks(true);
      list.rest.push({ op, pipeline: this.pipeline() });
    }
  }

  private pipeline(): Pipeline {
    this.skipBlanks();
    let negated = false;
    if (this.peek() === '!' && BLANKS.includes(this.peek(1))) {
      negated = true;
      this.pos++;
    }
    const commands: Command[] = [this.command()];
    for (;;) {
      this.skipBlanks();
      if (this.peek() !== '|' || this.peek(1) === '|') return { negated, commands };
      this.pos++;
      this.skipBlanks(true);
      commands.push(this.command());
    }
  }

  private command(): Command {
    this.skipBlanks();
    if (this.peek() === '(') {
      this.pos++;
      const body = this.script(')');
      if (this.peek() !== ')') throw new ShellSyntaxError("missing ')'");
      this.pos++;
      const redirects: Redirect[] = [];
      for (let r = this.redirectHere(); r; r = this.redirectHere()) redirects.push(r);
      return { kind: 'subshell', body, redirects };
    }
    return this.simpleCommand();
  }

  private simpleCommand(): SimpleCommand {
    const cmd: SimpleCommand = { kind: 'simple', assignments: [], words: [], redirects: [] };
    for (;;) {
      this.skipBlanks();
      const c = this.peek();
      if (this.atEnd() || '\n;&|)'.includes(c)) break;
      if (c === '(') throw new ShellSyntaxError("unexpected '('");
      const redirect = this.redirectHere();
      if (redirect) {
        cmd.redirects.push(redirect);
        continue;
      }
      const word = this.word();
      const head = word[0];
      if (cmd.words.length === 0 && head?.kind === 'text' && !head.quoted && ASSIGNMENT.test(head.value)) {
        const eq = head.value.indexOf('=');
        const rest: Word = [{ kind: 'text', value: head.value.slice(eq + 1), quoted: false }, ...word.slice(1)];
        cmd.assignments.push({ name: head.value.slice(0, eq), value: rest });
      } else {
        cmd.words.push(word);
      }
    }
    if (cmd.words.length === 0 && cmd.assignments.length === 0 && cmd.redirects.length === 0) {
      throw new ShellSyntaxError(this.atEnd() ? 'unexpected end of input' : `unexpected '${this.peek()}'`);
    }
    return cmd;
  }

  /** A redirection starting at the cursor (`>f`, `2>/dev/null`, `2>&1`, `<in`), or null. */
  private redirectHere(): Redirect | null {
    this.skipBlanks();
    const m = REDIRECT.exec(this.src.slice(this.pos, this.pos + 16));
    if (!m) return null;
    const digits = m[1] ?? '';
    const opText = m[2] ?? '>';
    this.pos += m[0].length;
    const op: RedirectOp = opText === '>|' ? '>' : (opText as RedirectOp);
    const fd = digits ? Number(digits) : op.startsWith('<') ? 0 : 1;
    this.skipBlanks();
    const target = this.word();
    if (target.length === 0) throw new ShellSyntaxError(`missing target after '${opText}'`);
    return { fd, op, target };
  }

  private word(): Word {
    const parts: WordPart[] = [];
    let text = '';
    const flush = (): void => {
      if (text) parts.push({ kind: 'text', value: text, quoted: false });
      text = '';
    };
    for (;;) {
      const c = this.peek();
      if (this.atEnd() || WORD_BREAKS.includes(c)) break;
      if (c === '\\') {
        const next = this.peek(1);
        this.pos += 2;
        if (next === '\n') continue; // line continuation
        flush();
        parts.push({ kind: 'text', value: next === '' ? '\\' : next, quoted: true });
      } else if (c === "'") {
        const end = this.src.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellSyntaxError("unterminated quoted string (')");
        flush();
        parts.push({ kind: 'text', value: this.src.slice(this.pos + 1, end), quoted: true });
        this.pos = end + 1;
      } else if (c === '"') {
        flush();
        parts.push(...this.doubleQuoted());
      } else if (c === '`') {
        flush();
        parts.push(this.backquoted(false));
      } else if (c === '$') {
        const part = this.dollar(false);
        if (part) {
          flush();
          parts.push(part);
        } else {
          text += '$';
        }
      } else {
        text += c;
        this.pos++;
      }
    }
    flush();
    return parts;
  }

  private doubleQuoted(): WordPart[] {
    this.pos++; // opening "
    const parts: WordPart[] = [];
    let text = '';
    const flush = (): void => {
      if (text) parts.push({ kind: 'text', value: text, quoted: true });
      text = '';
    };
    for (;;) {
      if (this.atEnd()) throw new ShellSyntaxError('unterminated quoted string (")');
      const c = this.peek();
      if (c === '"') {
        this.pos++;
        break;
      }
      if (c === '\\') {
        const next = this.peek(1);
        if ('$`"\\'.includes(next) && next !== '') text += next;
        else if (next !== '\n') text += `\\${next}`;
        this.pos += 2;
      } else if (c === '`') {
        flush();
        parts.push(this.backquoted(true));
      } else if (c === '$') {
        const part = this.dollar(true);
        if (part) {
          flush();
          parts.push(part);
        } else {
          text += '$';
        }
      } else {
        text += c;
        this.pos++;
      }
    }
    flush();
    // `""` is still a word: an empty, quoted one.
    if (parts.length === 0) parts.push({ kind: 'text', value: '', quoted: true });
    return parts;
  }

  /** `$…` at the cursor. Returns null (cursor past the `$`) when it is a literal dollar sign. */
  private dollar(quoted: boolean): WordPart | null {
    this.pos++; // $
    const c = this.peek();
    if (c === '(') {
      if (this.peek(1) === '(') throw new ShellSyntaxError('arithmetic expansion $((…)) is not supported');
      this.pos++;
      const script = this.script(')');
      if (this.peek() !== ')') throw new ShellSyntaxError("unterminated '$('");
      this.pos++;
      return { kind: 'subst', script, quoted };
    }
    if (c === '{') {
      const end = this.src.indexOf('}', this.pos);
      if (end < 0) throw new ShellSyntaxError("unterminated '${'");
      const name = this.src.slice(this.pos + 1, end);
      if (!/^([A-Za-z_][A-Za-z0-9_]*|[0-9?$#!@*-])$/.test(name))
        throw new ShellSyntaxError(`bad substitution '\${${name}}'`);
      this.pos = end + 1;
      return { kind: 'param', name, quoted };
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(this.pos))?.[0];
    if (name) {
      this.pos += name.length;
      return { kind: 'param', name, quoted };
    }
    if (c !== '' && '?$#!@*-0123456789'.includes(c)) {
      this.pos++;
      return { kind: 'param', name: c, quoted };
    }
    return null;
  }

  /** Backticks: the text up to the closing backtick (with `\``, `\$`, `\\` unescaped) is a script. */
  private backquoted(quoted: boolean): WordPart {
    this.pos++; // opening `
    let inner = '';
    for (;;) {
      if (this.atEnd()) throw new ShellSyntaxError('unterminated backquote');
      const c = this.peek();
      if (c === '`') {
        this.pos++;
        break;
      }
      if (c === '\\' && ('$`\\'.includes(this.peek(1)) || (quoted && this.peek(1) === '"')) && this.peek(1) !== '') {
        inner += this.peek(1);
        this.pos += 2;
        continue;
      }
      inner += c;
      this.pos++;
    }
    return { kind: 'subst', script: parseScript(inner), quoted };
  }

  private skipBlanks(newlinesToo = false): void {
    for (;;) {
      const c = this.peek();
      if (c === '#') {
        while (!this.atEnd() && this.peek() !== '\n') this.pos++;
      } else if (c === '\\' && this.peek(1) === '\n') {
        this.pos += 2;
      } else if (c !== '' && (BLANKS.includes(c) || (newlinesToo && c === '\n'))) {
        this.pos++;
      } else {
        return;
      }
    }
  }

  private skipSeparators(): void {
    for (;;) {
      this.skipBlanks(true);
      const c = this.peek();
      if (c === ';' || (c === '&' && this.peek(1) !== '&')) this.pos++;
      else return;
    }
  }
}
