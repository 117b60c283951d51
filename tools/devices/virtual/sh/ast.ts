/** The syntax tree of the device shell: only the POSIX sh subset that command lines use. */

export type WordPart =
  /** Literal text. `quoted` text (quotes or a backslash) is never split into fields. */
  | { kind: 'text'; value: string; quoted: boolean }
  /** `$(…)` or backticks: the inner script runs and its output replaces the part. */
  | { kind: 'subst'; script: Script; quoted: boolean }
  /** `$NAME`, `${NAME}`, `$?`, `$$`… */
  | { kind: 'param'; name: string; quoted: boolean };

export type Word = WordPart[];

export type RedirectOp = '>' | '>>' | '<' | '>&' | '<&';

export interface Redirect {
  fd: number;
  op: RedirectOp;
  target: Word;
}

export interface SimpleCommand {
  kind: 'simple';
  assignments: { name: string; value: Word }[];
  words: Word[];
  redirects: Redirect[];
}

export interface Subshell {
  kind: 'subshell';
  body: Script;
  redirects: Redirect[];
}

export type Command = SimpleCommand | Subshell;

export interface Pipeline {
  negated: boolean;
  commands: Command[];
}

export interface AndOrList {
  first: Pipeline;
  rest: { op: '&&' | '||'; pipeline: Pipeline }[];
}

/** Lists separated by `;`, `&` (run in order here: the device has no job control) or newlines. */
export type Script = AndOrList[];
