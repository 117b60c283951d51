/**
 * What a word becomes in a command's argument list, as far as it is known before the line runs:
 * brace expansion (`{a,b}`, on in mksh by default) is done here exactly; expansions (`$x`, `$(…)`,
 * `~`) are unknown; unquoted expansions may split into several fields or vanish, and unquoted
 * `*` `?` `[` may turn into any number of file names (which may begin with `-`). Rules look at
 * these flags, never at the word's spelling.
 */
import type { ExpansionPart, Word } from './command-ast';

/** One character of a word, or one expansion. */
export type Atom = { ch: string; quoted: boolean } | { exp: ExpansionPart };

export interface Field {
  /** The text; expansions appear as their spelling (`$HOME`, `$(…)`). */
  text: string;
  /** Part of it is only known at run time. */
  dynamic: boolean;
  /** Has unquoted `*`, `?` or `[`: pathname expansion may replace it. */
  glob: boolean;
  /** May become zero or several arguments (unquoted expansion, `"$@"`, or a glob). */
  multi: boolean;
  /** May begin with `-`, and so be read as an option. */
  maybeOption: boolean;
  atoms: Atom[];
}

const MAX_FIELDS = 128;

export function atomsOf(word: Word): Atom[] {
  const atoms: Atom[] = [];
  for (const part of word.parts) {
    if (part.kind === 'expansion') atoms.push({ exp: part });
    else for (const ch of part.text) atoms.push({ ch, quoted: part.quoted });
  }
  return atoms;
}

/** Atom `i` starts a pattern: an unquoted `*` or `?`, or an unquoted `[` with a `]` after it. */
export function globAt(atoms: readonly Atom[], i: number): boolean {
  const a = atoms[i];
  if (a === undefined || !('ch' in a) || a.quoted) return false;
  if (a.ch === '*' || a.ch === '?') return true;
  return a.ch === '[' && atoms.some((b, j) => j > i + 1 && 'ch' in b && b.ch === ']');
}

export const hasGlob = (atoms: readonly Atom[]): boolean => atoms.some((_, i) => globAt(atoms, i));
const unquoted = (a: Atom | undefined, ch: string): boolean => a !== undefined && 'ch' in a && !a.quoted && a.ch === ch;

export function fieldOf(atoms: Atom[]): Field {
  const exps = atoms.flatMap((a) => ('exp' in a ? [a.exp] : []));
  const glob = hasGlob(atoms);
  const splits = exps.some((e) => !e.quoted || e.spelling.includes('@'));
  const first = atoms[0];
  return {
    text: atoms.map((a) => ('exp' in a ? a.exp.spelling : a.ch)).join(''),
    dynamic: exps.length > 0,
    glob,
    multi: glob || splits,
    maybeOption: splits || (first !== undefined && ('exp' in first || first.ch === '-' || globAt(atoms, 0))),
    atoms,
  };
}

/** At least how many words the top-level brace groups of `atoms` make (it grows no further past `limit`). */
function braceProduct(atoms: Atom[], limit: number): number {
  let product = 1;
  let depth = 0;
  let commas = 0;
  for (const a of atoms) {
    if (unquoted(a, '{') && depth++ === 0) commas = 0;
    else if (unquoted(a, ',') && depth === 1) commas++;
    else if (unquoted(a, '}') && depth > 0 && --depth === 0) product = Math.min(product * (commas + 1), limit + 1);
  }
  return product;
}

/** The word's alternatives after brace expansion, or null when there are too many to follow. */
function expandBraces(atoms: Atom[], budget: { left: number }): Atom[][] | null {
  if (braceProduct(atoms, budget.left) > budget.left) return null;
  for (let open = 0; open < atoms.length; open++) {
    if (!unquoted(atoms[open], '{')) continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = open + 1; i < atoms.length; i++) {
      if (unquoted(atoms[i], '{')) depth++;
      else if (unquoted(atoms[i], '}')) {
        if (depth-- > 0) continue;
        if (commas.length === 0) break;
        const cuts = [open, ...commas, i];
        const out: Atom[][] = [];
        for (let k = 0; k + 1 < cuts.length; k++) {
          const alt = [...atoms.slice(0, open), ...atoms.slice(cuts[k]! + 1, cuts[k + 1]), ...atoms.slice(i + 1)];
          const more = expandBraces(alt, budget);
          if (!more) return null;
          out.push(...more);
        }
        return out;
      } else if (depth === 0 && unquoted(atoms[i], ',')) commas.push(i);
    }
  }
  return --budget.left < 0 ? null : [atoms];
}

export interface Argv {
  fields: Field[];
  /** Brace expansion changed the words (so the unexpanded spelling is judged too). */
  braced: boolean;
}

/** The arguments the words become, with brace expansion (`braces`) or without. */
export function argvOf(words: readonly Word[], braces: boolean): Argv {
  const fields: Field[] = [];
  let braced = false;
  const budget = { left: MAX_FIELDS };
  for (const word of words) {
    const atoms = atomsOf(word);
    const alternatives = braces ? expandBraces(atoms, budget) : [atoms];
    if (!alternatives) {
      // More alternatives than the gate follows: one field that may be anything.
      fields.push(
        fieldOf([{ exp: { kind: 'expansion', spelling: word.raw.slice(0, 40), quoted: false, scripts: [] } }]),
      );
      braced = true;
      continue;
    }
    if (alternatives.length !== 1 || alternatives[0]!.length !== atoms.length) braced = true;
    for (const alt of alternatives) fields.push(fieldOf(alt));
  }
  return { fields, braced };
}

/** The field's text, if it is fully known and is not a pattern. */
export function staticText(field: Field): string | null {
  return field.dynamic || field.glob ? null : field.text;
}
