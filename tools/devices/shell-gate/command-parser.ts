/**
 * Reads a device command line into the tree mksh would run (command-ast.ts): lists joined by `;`
 * `&` `&&` `||` `|` `|&` and newlines, `( … )`, `{ …; }`, `if`, `while`, `until`, `for`, `select`,
 * `case`, functions, `[[ … ]]`, simple commands with their assignments and redirections (with file
 * descriptor numbers: `2>`, `1<>`, `&>`, `>&2`, `<<<`) and here-documents, whose bodies are read
 * too. Words, quoting and expansions are read by word-reader.ts.
 *
 * Written by hand because the gate must see what the device's shell sees: shell-quote (installed)
 * joins lines separated by a newline into one command, keeps `"$(cmd)"` as plain text and knows
 * neither `1<>` nor here-documents. Whatever this parser does not fully follow (arithmetic,
 * extended globs, unterminated quotes or here-documents, syntax errors, deep nesting) is reported as
 * a problem, and the gate never calls such a line read-only.
 */
import type { Command, Redirect, Script, SimpleCommand, Word } from './command-ast';
import { META, WordReader } from './word-reader';

export interface ParsedLine {
  script: Script;
  problems: string[];
}

const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'for', 'select']);
for (const w of ['in', 'case', 'esac', 'function', 'time', '{', '}', '!', '[[']) RESERVED.add(w);
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/;
const REDIRECT_OPS = ['<<<', '<<-', '<<', '<>', '<&', '<', '>>', '>|', '>&', '>'];

class Parser extends WordReader {
  protected fork(text: string): WordReader {
    return new Parser(text, this.problems, this.depth);
  }

  /** Blanks, line continuations and a comment (a `#` where a word would start). */
  private skipBlanks(): void {
    const src = this.src;
    while (this.pos < src.length) {
      const c = src[this.pos];
      if (c === ' ' || c === '\t') this.pos++;
      else if (c === '\\' && src[this.pos + 1] === '\n') this.pos += 2;
      else if (c === '#') while (this.pos < src.length && src[this.pos] !== '\n') this.pos++;
      else return;
    }
  }

  /** Consumes a newline, then the bodies of the here-documents begun on that line. */
  private newline(): void {
    this.pos++;
    const pending = this.heredocs;
    this.heredocs = [];
    for (const h of pending) this.heredocBody(h);
  }

  private linebreak(): void {
    for (;;) {
      this.skipBlanks();
      if (this.src[this.pos] === '\n') this.newline();
      else return;
    }
  }

  /** The reserved word at the cursor, if one stands there as a whole word. */
  private reserved(): string | null {
    const m = /^(\{|\}|!|\[\[|[a-z]+)(?=$|[ \t\n;&|()<>])/.exec(this.src.slice(this.pos, this.pos + 10));
    return m && RESERVED.has(m[1]!) ? m[1]! : null;
  }

  protected expectReserved(word: string): void {
    this.linebreak();
    if (this.reserved() === word) this.pos += word.length;
    else this.problem(`missing '${word}'`);
  }

  /** Pipelines until the end, or until one of `stops` (a reserved word, `)` or `;;`) at a command's start. */
  script(stops: ReadonlySet<string>): Script {
    const pipelines: Command[][] = [];
    if (!this.enter()) return { pipelines };
    for (;;) {
      this.linebreak();
      if (this.eof || this.atStop(stops)) break;
      const before = this.pos;
      pipelines.push(...this.andOr());
      this.skipBlanks();
      if (this.at(';;') || this.at(';&') || this.at(';|')) {
        if (stops.has(';;')) break;
        this.problem("unexpected ';;'");
        this.pos += 2;
      } else if (this.at('|&')) this.pos += 2;
      else if (this.at(';') || this.at('&')) this.pos++;
      else if (this.at('\n')) this.newline();
      else if (!this.eof && !this.atStop(stops)) {
        this.problem(`unexpected '${this.src[this.pos]}'`);
        this.pos++;
      }
      if (this.pos === before) this.pos++;
    }
    this.depth--;
    return { pipelines };
  }

  private atStop(stops: ReadonlySet<string>): boolean {
    if (stops.has(')') && this.at(')')) return true;
    if (stops.has(';;') && (this.at(';;') || this.at(';&') || this.at(';|'))) return true;
    const w = this.reserved();
    return w !== null && stops.has(w);
  }

  private andOr(): Command[][] {
    const out = [this.pipeline()];
    for (;;) {
      this.skipBlanks();
      if (!this.at('&&') && !this.at('||')) return out;
      this.pos += 2;
      this.linebreak();
      out.push(this.pipeline());
    }
  }

  private pipeline(): Command[] {
    this.skipBlanks();
    for (let w = this.reserved(); w === '!' || w === 'time'; w = this.reserved()) {
      this.pos += w.length;
      this.skipBlanks();
      if (w === 'time' && /^-p(?=[ \t])/.test(this.src.slice(this.pos, this.pos + 3))) this.pos += 2;
    }
    const out = [this.command()];
    for (;;) {
      this.skipBlanks();
      if (!this.at('|') || this.at('||') || this.at('|&')) return out;
      this.pos++;
      this.linebreak();
      out.push(this.command());
    }
  }

  private command(): Command {
    if (!this.enter()) return { type: 'simple', assignments: [], words: [], redirects: [] };
    const command = this.commandHere();
    this.depth--;
    return command;
  }

  private commandHere(): Command {
    this.skipBlanks();
    if (this.at('(')) {
      if (this.at('((')) this.problem('arithmetic commands are not followed');
      this.pos++;
      const body = this.script(new Set([')']));
      if (this.at(')')) this.pos++;
      else this.problem("missing ')'");
      return this.compound('subshell', [body]);
    }
    const w = this.reserved();
    switch (w) {
      case '{': {
        this.pos++;
        const body = this.script(new Set(['}']));
        this.expectReserved('}');
        return this.compound('group', [body]);
      }
      case 'if':
        return this.ifCommand();
      case 'while':
      case 'until': {
        this.pos += w.length;
        const cond = this.script(new Set(['do']));
        this.expectReserved('do');
        const body = this.script(new Set(['done']));
        this.expectReserved('done');
        return this.compound('loop', [cond, body]);
      }
      case 'for':
      case 'select':
        return this.forCommand(w);
      case 'case':
        return this.caseCommand();
      case 'function': {
        this.pos += w.length;
        this.skipBlanks();
        const name = this.word();
        this.skipBlanks();
        if (this.at('()')) this.pos += 2;
        this.linebreak();
        return { type: 'function', name: name?.raw ?? '', body: this.command() };
      }
      case '[[':
        this.pos += 2;
        return this.testCommand();
      case null:
        return this.simple();
      default:
        this.problem(`unexpected '${w}'`);
        this.pos += w.length;
        return { type: 'simple', assignments: [], words: [], redirects: [] };
    }
  }

  private compound(type: 'subshell' | 'group' | 'if' | 'loop' | 'case' | 'test', bodies: Script[], words: Word[] = []) {
    return { type, bodies, words, redirects: this.redirects() };
  }

  private redirects(): Redirect[] {
    const out: Redirect[] = [];
    for (;;) {
      this.skipBlanks();
      if (!this.atRedirect()) return out;
      out.push(this.redirect());
    }
  }

  private ifCommand(): Command {
    const bodies: Script[] = [];
    this.pos += 2;
    for (;;) {
      bodies.push(this.script(new Set(['then'])));
      this.expectReserved('then');
      bodies.push(this.script(new Set(['elif', 'else', 'fi'])));
      const w = this.reserved();
      if (w === 'elif') {
        this.pos += 4;
        continue;
      }
      if (w === 'else') {
        this.pos += 4;
        bodies.push(this.script(new Set(['fi'])));
      }
      this.expectReserved('fi');
      return this.compound('if', bodies);
    }
  }

  private forCommand(keyword: 'for' | 'select'): Command {
    this.pos += keyword.length;
    this.skipBlanks();
    if (this.at('((')) this.problem('arithmetic for loops are not followed');
    const variable = this.word()?.raw ?? '';
    const words: Word[] = [];
    this.linebreak();
    if (this.reserved() === 'in') {
      this.pos += 2;
      for (;;) {
        this.skipBlanks();
        const w = this.eof || META.includes(this.src[this.pos]!) ? null : this.word();
        if (!w) break;
        words.push(w);
      }
    }
    this.skipBlanks();
    if (this.at(';')) this.pos++;
    this.linebreak();
    let body: Script;
    if (this.reserved() === '{') {
      this.pos++;
      body = this.script(new Set(['}']));
      this.expectReserved('}');
    } else {
      this.expectReserved('do');
      body = this.script(new Set(['done']));
      this.expectReserved('done');
    }
    return { type: 'for', keyword, variable, words, body, redirects: this.redirects() };
  }

  private caseCommand(): Command {
    this.pos += 4;
    this.skipBlanks();
    const words: Word[] = [];
    const subject = this.word();
    if (subject) words.push(subject);
    this.expectReserved('in');
    const bodies: Script[] = [];
    for (;;) {
      this.linebreak();
      if (this.reserved() === 'esac') {
        this.pos += 4;
        break;
      }
      if (this.eof) {
        this.problem("missing 'esac'");
        break;
      }
      if (this.at('(')) this.pos++;
      for (;;) {
        this.skipBlanks();
        const pattern = this.word();
        if (pattern) words.push(pattern);
        this.skipBlanks();
        if (!this.at('|')) break;
        this.pos++;
      }
      if (this.at(')')) this.pos++;
      else {
        this.problem("a case pattern without ')'");
        this.pos = this.src.length;
        break;
      }
      bodies.push(this.script(new Set([';;', 'esac'])));
      if (this.at(';;') || this.at(';&') || this.at(';|')) this.pos += 2;
    }
    return this.compound('case', bodies, words);
  }

  /** `[[ … ]]`: operands only; `<`, `>`, `&&`, `||`, `(`, `)` are its own operators here. */
  private testCommand(): Command {
    const words: Word[] = [];
    for (;;) {
      this.skipBlanks();
      if (this.eof) {
        this.problem("missing ']]'");
        break;
      }
      if (this.at(']]') && (this.pos + 2 >= this.src.length || META.includes(this.src[this.pos + 2]!))) {
        this.pos += 2;
        break;
      }
      if (this.at('&&') || this.at('||')) this.pos += 2;
      else if ('()<>'.includes(this.src[this.pos]!)) this.pos++;
      else if (META.includes(this.src[this.pos]!)) {
        this.problem(`unexpected '${this.src[this.pos] === '\n' ? 'newline' : this.src[this.pos]}' in [[ … ]]`);
        break;
      } else {
        const w = this.word();
        if (w) words.push(w);
      }
    }
    return this.compound('test', [], words);
  }

  private simple(): Command {
    const cmd: SimpleCommand = { type: 'simple', assignments: [], words: [], redirects: [] };
    for (;;) {
      this.skipBlanks();
      if (this.eof) break;
      if (this.atRedirect()) {
        cmd.redirects.push(this.redirect());
        continue;
      }
      if (META.includes(this.src[this.pos]!)) {
        if (this.at('(') && cmd.words.length === 1 && cmd.assignments.length === 0) return this.functionBody(cmd);
        break;
      }
      const w = this.word();
      if (!w) break;
      const m =
        cmd.words.length === 0 && w.parts[0]?.kind === 'literal' && !w.parts[0].quoted && ASSIGNMENT.exec(w.raw);
      if (m) cmd.assignments.push({ name: m[1]!, value: w });
      else cmd.words.push(w);
    }
    return cmd;
  }

  private functionBody(cmd: SimpleCommand): Command {
    this.pos++;
    this.skipBlanks();
    if (this.at(')')) this.pos++;
    else this.problem("'(' after a command name");
    this.linebreak();
    return { type: 'function', name: cmd.words[0]!.raw, body: this.command() };
  }

  private atRedirect(): boolean {
    const c = this.src[this.pos];
    const n = this.src[this.pos + 1];
    if (c === '<' || c === '>') return true;
    if (c === '&' && n === '>') return true;
    return c !== undefined && c >= '0' && c <= '9' && (n === '<' || n === '>');
  }

  private redirect(): Redirect {
    let fd: number | null = null;
    const c = this.src[this.pos]!;
    if (c >= '0' && c <= '9') {
      fd = Number(c);
      this.pos++;
    }
    const ops = fd === null ? ['&>>', '&>', ...REDIRECT_OPS] : REDIRECT_OPS;
    const op = ops.find((o) => this.at(o))!;
    this.pos += op.length;
    this.skipBlanks();
    const target = this.eof || META.includes(this.src[this.pos]!) ? null : this.word();
    if (!target) this.problem(`the redirection '${op}' has no target`);
    const redirect: Redirect = { fd, op, target: target ?? { parts: [], raw: '' } };
    if (op === '<<' || op === '<<-') {
      redirect.body = [];
      const quoted = /['"\\]/.test(target?.raw ?? '');
      const delimiter = (target?.parts ?? []).map((p) => (p.kind === 'literal' ? p.text : p.spelling)).join('');
      this.heredocs.push({ redirect, delimiter, strip: op === '<<-', quoted });
    }
    return redirect;
  }

  finish(): void {
    if (this.heredocs.length > 0) this.problem('a here-document without its end line');
  }
}

export function parseCommandLine(text: string): ParsedLine {
  const problems: string[] = [];
  if (text.includes('\0')) problems.push('a NUL character (the device would cut the line there)');
  const parser = new Parser(text, problems, 0);
  const script = parser.script(new Set());
  parser.finish();
  return { script, problems };
}
