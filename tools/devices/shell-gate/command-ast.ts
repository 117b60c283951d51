/**
 * The syntax tree of a device command line as mksh (Android's /system/bin/sh) reads it: lists of
 * pipelines of commands, with their words, assignments and redirections. Words keep, character by
 * character, what was quoted and what only becomes known when the line runs (expansions), because
 * globbing, brace expansion, field splitting and option parsing all depend on it.
 */

/** A run of literal characters; `quoted` ones are not globbed, brace-expanded or split. */
export interface LiteralPart {
  kind: 'literal';
  text: string;
  quoted: boolean;
}

/** Anything whose value is only known at run time: `$x`, `${…}`, `$(…)`, backticks, `$((…))`, `~`, `$'\…'`. */
export interface ExpansionPart {
  kind: 'expansion';
  /** How it is spelled in the line, shortened, for messages. */
  spelling: string;
  /** Inside double quotes: one field, never split or globbed. */
  quoted: boolean;
  /** The commands it runs (command substitutions, also nested inside `${x:-$(…)}`). */
  scripts: Script[];
  /** A variable it assigns while expanding (`${x:=v}`, `${x=v}`), if any. */
  assigns?: string;
}

export type WordPart = LiteralPart | ExpansionPart;

export interface Word {
  parts: WordPart[];
  /** The word as written (for messages). */
  raw: string;
}

export interface Redirect {
  /** The file descriptor written before the operator (`2>`), if any. */
  fd: number | null;
  /** `<` `>` `>>` `>|` `<>` `&>` `&>>` `<&` `>&` `<<` `<<-` `<<<`. */
  op: string;
  target: Word;
  /** A here-document's body (`<<`), as parts: its expansions run unless the delimiter was quoted. */
  body?: WordPart[];
}

export interface Assignment {
  name: string;
  value: Word;
}

export interface SimpleCommand {
  type: 'simple';
  assignments: Assignment[];
  words: Word[];
  redirects: Redirect[];
}

/** `( … )`, `{ …; }`, `if`, `while`/`until`, `case` and `[[ … ]]`: the parts run, nothing else. */
export interface CompoundCommand {
  type: 'subshell' | 'group' | 'if' | 'loop' | 'case' | 'test';
  /** The lists it runs (conditions, bodies, branches). */
  bodies: Script[];
  /** Words it expands (case subjects and patterns, `[[` operands). */
  words: Word[];
  redirects: Redirect[];
}

/** `for`/`select NAME in …; do …; done`: also assigns NAME. */
export interface ForCommand {
  type: 'for';
  keyword: 'for' | 'select';
  variable: string;
  words: Word[];
  body: Script;
  redirects: Redirect[];
}

/** `name() body` / `function name body`: defines a function (which may shadow any command). */
export interface FunctionDefinition {
  type: 'function';
  name: string;
  body: Command;
}

export type Command = SimpleCommand | CompoundCommand | ForCommand | FunctionDefinition;

/** Every pipeline of a list, in order; `&&`, `||`, `;`, `&` and `|&` do not matter to the gate (any may run). */
export interface Script {
  pipelines: Command[][];
}
