/**
 * The word level of the device shell's syntax, as mksh reads it: quoting (`'…'`, `"…"`, `\`,
 * `$'…'`, `$"…"`), expansions (`$x`, `${…}` with its operators, mksh's `${ …;}` and `${|…;}`,
 * `$(…)`, backticks, `~`) and here-document bodies. Each character keeps whether it was quoted;
 * the commands inside substitutions are parsed by the grammar (command-parser.ts), which extends
 * this class. What is not followed is reported as a problem.
 */
import type { ExpansionPart, Redirect, Script, Word, WordPart } from './command-ast';

export const META = ' \t\n;&|()<>';
const MAX_DEPTH = 24;

export interface PendingHeredoc {
  redirect: Redirect;
  delimiter: string;
  strip: boolean;
  quoted: boolean;
}

function append(parts: WordPart[], text: string, quoted: boolean): void {
  const last = parts.at(-1);
  if (last?.kind === 'literal' && last.quoted === quoted) last.text += text;
  else parts.push({ kind: 'literal', text, quoted });
}

function expansion(spelling: string, quoted: boolean, scripts: Script[] = [], assigns?: string): ExpansionPart {
  return { kind: 'expansion', spelling, quoted, scripts, ...(assigns ? { assigns } : {}) };
}

export abstract class WordReader {
  pos = 0;
  protected heredocs: PendingHeredoc[] = [];

  constructor(
    protected readonly src: string,
    readonly problems: string[],
    protected depth: number,
  ) {}

  /** Commands until one of `stops` (the grammar). */
  abstract script(stops: ReadonlySet<string>): Script;
  /** Consumes a reserved word, or reports it missing. */
  protected abstract expectReserved(word: string): void;
  /** A reader of other text (a backtick substitution, a here-document body) sharing the problems. */
  protected abstract fork(text: string): WordReader;

  problem(text: string): void {
    if (!this.problems.includes(text)) this.problems.push(text);
  }

  protected at(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  protected get eof(): boolean {
    return this.pos >= this.src.length;
  }

  protected enter(): boolean {
    if (++this.depth <= MAX_DEPTH) return true;
    this.problem('nesting too deep to follow');
    this.pos = this.src.length;
    return false;
  }

  protected heredocBody(h: PendingHeredoc): void {
    const src = this.src;
    let body = '';
    for (;;) {
      if (this.eof) {
        this.problem('a here-document without its end line');
        break;
      }
      const nl = src.indexOf('\n', this.pos);
      const end = nl < 0 ? src.length : nl;
      const line = src.slice(this.pos, end);
      this.pos = nl < 0 ? src.length : nl + 1;
      if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delimiter) break;
      body += `${line}\n`;
    }
    if (h.quoted) h.redirect.body = [{ kind: 'literal', text: body, quoted: true }];
    else {
      h.redirect.body = this.fork(body).heredocParts();
    }
  }

  /** A here-document body with an unquoted delimiter: expansions run, as inside double quotes. */
  heredocParts(): WordPart[] {
    const parts: WordPart[] = [];
    while (!this.eof) this.quotedChar(parts, null);
    return parts;
  }

  /** One word, or null at an operator or the end. */
  word(): Word | null {
    const src = this.src;
    const start = this.pos;
    const parts: WordPart[] = [];
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      if (META.includes(c)) break;
      if (c === '\\') {
        const n = src[this.pos + 1];
        if (n === undefined) this.problem('a backslash at the end of the line');
        else if (n !== '\n') append(parts, n, true);
        this.pos += 2;
      } else if (c === "'") {
        const close = src.indexOf("'", this.pos + 1);
        if (close < 0) this.problem('an unterminated single quote');
        append(parts, src.slice(this.pos + 1, close < 0 ? src.length : close), true);
        this.pos = close < 0 ? src.length : close + 1;
      } else if (c === '"') {
        this.pos++;
        while (!this.eof && src[this.pos] !== '"') this.quotedChar(parts, '"');
        if (this.eof) this.problem('an unterminated double quote');
        else this.pos++;
      } else if (c === '$') this.dollar(parts, false);
      else if (c === '`') this.backtick(parts, false);
      else if (c === '~' && this.tildeMayExpand(parts, start)) this.tilde(parts);
      else {
        if ('*?+@!'.includes(c) && src[this.pos + 1] === '(') this.problem('extended glob patterns are not followed');
        append(parts, c, false);
        this.pos++;
      }
    }
    return this.pos > start ? { parts, raw: src.slice(start, this.pos) } : null;
  }

  private tildeMayExpand(parts: WordPart[], start: number): boolean {
    if (this.pos === start) return true;
    const last = parts.at(-1);
    return last?.kind === 'literal' && !last.quoted && /[=:]$/.test(last.text);
  }

  private tilde(parts: WordPart[]): void {
    const m = /^~[^/:\s;&|()<>'"`$\\]*/.exec(this.src.slice(this.pos))!;
    this.pos += m[0].length;
    parts.push(expansion(m[0], false));
  }

  /** One unit inside double quotes (`until` is `"`) or a here-document body (`until` null). */
  private quotedChar(parts: WordPart[], until: '"' | null): void {
    const src = this.src;
    const c = src[this.pos]!;
    if (c === '\\') {
      const n = src[this.pos + 1];
      if (n === '$' || n === '`' || n === '\\' || (n === '"' && until === '"')) {
        append(parts, n, true);
        this.pos += 2;
      } else if (n === '\n') this.pos += 2;
      else {
        append(parts, '\\', true);
        this.pos++;
      }
    } else if (c === '$') this.dollar(parts, true);
    else if (c === '`') this.backtick(parts, true);
    else {
      append(parts, c, true);
      this.pos++;
    }
  }

  private dollar(parts: WordPart[], inQuotes: boolean): void {
    const src = this.src;
    const n = src[this.pos + 1];
    if (n === '(') {
      if (src[this.pos + 2] === '(') this.problem('arithmetic expansion is not followed');
      this.pos += 2;
      const body = this.script(new Set([')']));
      if (this.heredocs.length > 0) this.problem('a here-document inside $( … ) ends after it');
      if (this.at(')')) this.pos++;
      else this.problem("an unterminated '$('");
      parts.push(expansion('$(…)', inQuotes, [body]));
    } else if (n === '{') {
      if (!this.enter()) return;
      this.braced(parts, inQuotes);
      this.depth--;
    } else if (n === "'" && !inQuotes) {
      let j = this.pos + 2;
      while (j < src.length && src[j] !== "'") j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) this.problem("an unterminated $'");
      const text = src.slice(this.pos + 2, Math.min(j, src.length));
      if (text.includes('\\')) parts.push(expansion("$'…'", true));
      else append(parts, text, true);
      this.pos = j + 1;
    } else if (n === '"' && !inQuotes) this.pos++;
    else if (n !== undefined && /[A-Za-z_]/.test(n)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(this.pos + 1))!;
      parts.push(expansion(`$${m[0]}`, inQuotes));
      this.pos += 1 + m[0].length;
    } else if (n !== undefined && /[0-9@*#?$!-]/.test(n)) {
      parts.push(expansion(`$${n}`, inQuotes));
      this.pos += 2;
    } else {
      append(parts, '$', inQuotes);
      this.pos++;
    }
  }

  /** `${…}`: a parameter with its operator and word, or mksh's `${ list;}` / `${|list;}`, which run commands. */
  private braced(parts: WordPart[], inQuotes: boolean): void {
    const src = this.src;
    const c = src[this.pos + 2];
    if (c === ' ' || c === '\t' || c === '\n' || c === '|') {
      this.pos += c === '|' ? 3 : 2;
      const body = this.script(new Set(['}']));
      this.expectReserved('}');
      parts.push(expansion(`\${ …;}`, inQuotes, [body]));
      return;
    }
    this.pos += 2;
    const m = /^[#!]?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/.exec(src.slice(this.pos));
    if (!m) this.problem(`an unreadable \${…}`);
    const name = m?.[1] ?? '';
    this.pos += m?.[0].length ?? 0;
    const op = /^(:?[-=?+]|##?|%%?|\/\/?|:|@|\[)/.exec(src.slice(this.pos))?.[0] ?? '';
    const nested: WordPart[] = [];
    while (!this.eof && src[this.pos] !== '}') {
      const ch = src[this.pos]!;
      if (ch === '\\') this.pos += 2;
      else if (ch === "'" && inQuotes) {
        this.problem(`a quote inside \${…} within double quotes`);
        this.pos++;
      } else if (ch === "'") {
        const close = src.indexOf("'", this.pos + 1);
        this.pos = close < 0 ? src.length : close + 1;
      } else if (ch === '"') {
        this.pos++;
        while (!this.eof && src[this.pos] !== '"') this.quotedChar(nested, '"');
        this.pos++;
      } else if (ch === '$') this.dollar(nested, true);
      else if (ch === '`') this.backtick(nested, true);
      else this.pos++;
    }
    if (this.eof) this.problem("an unterminated '${'");
    this.pos++;
    const inner = nested.filter((p): p is ExpansionPart => p.kind === 'expansion');
    const assigns = op === '=' || op === ':=' ? name : inner.find((p) => p.assigns)?.assigns;
    parts.push(
      expansion(
        `\${${name}${op}…}`,
        inQuotes,
        inner.flatMap((p) => p.scripts),
        assigns,
      ),
    );
  }

  /**
   * A backtick substitution: its text, with `\`` `\\` `\$` (and `\"` inside double quotes) unescaped, is parsed anew.
   */
  private backtick(parts: WordPart[], inQuotes: boolean): void {
    const src = this.src;
    let text = '';
    let j = this.pos + 1;
    while (j < src.length && src[j] !== '`') {
      const n = src[j + 1];
      if (src[j] === '\\' && (n === '`' || n === '\\' || n === '$' || (inQuotes && n === '"'))) {
        text += n;
        j += 2;
      } else text += src[j++];
    }
    if (j >= src.length) this.problem('an unterminated backtick');
    this.pos = j + 1;
    const sub = this.fork(text);
    const body = sub.script(new Set());
    if (sub.heredocs.length > 0) this.problem('a here-document inside backticks without its end line');
    parts.push(expansion('`…`', inQuotes, [body]));
  }
}
