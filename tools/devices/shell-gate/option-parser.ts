/**
 * Reads a command's options as getopt does on the device (toybox and GNU tools alike): clusters
 * (`-no FILE` is `-n -o FILE`), an option's argument attached or in the next word, long options
 * with `=` or a following word, `--` ending options, and options after operands still counting
 * (unless the command stops at its first operand). Only the options a rule lists are accepted:
 * any other, and any word that might expand to an option, makes the parse fail, so an allow-list
 * of options cannot be walked around by spelling.
 */
import type { Field } from './word-fields';

export interface OptionSpec {
  /** Short options without an argument. */
  flags?: string;
  /** Short options that take an argument. */
  withArg?: string;
  /** Long options (without `--`): true when they take an argument. */
  long?: Readonly<Record<string, boolean>>;
  /** Options end at the first operand (awk, xargs, env…). */
  stopAtOperand?: boolean;
}

export interface ParsedOptions {
  ok: true;
  /** Short option letters and long option names seen, with their argument if they take one. */
  options: { name: string; value: Field | null }[];
  operands: Field[];
}

export interface OptionFailure {
  ok: false;
  /** The offending word (an option as written, or the expansion). */
  token: string;
  why: 'unknown' | 'may-be-option' | 'missing-argument';
}

export function parseOptions(args: readonly Field[], spec: OptionSpec): ParsedOptions | OptionFailure {
  const options: ParsedOptions['options'] = [];
  const operands: Field[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (!a.dynamic && !a.glob && a.text === '--') {
      i++;
      break;
    }
    if (a.maybeOption && (a.dynamic || a.glob)) return { ok: false, token: a.text, why: 'may-be-option' };
    if (!a.text.startsWith('-') || a.text === '-') {
      operands.push(a);
      if (spec.stopAtOperand) {
        i++;
        break;
      }
      continue;
    }
    if (a.text.startsWith('--')) {
      const eq = a.text.indexOf('=');
      const name = a.text.slice(2, eq < 0 ? undefined : eq);
      const takes = spec.long?.[name];
      if (takes === undefined) return { ok: false, token: `--${name}`, why: 'unknown' };
      let value: Field | null = null;
      if (takes && eq < 0) {
        value = args[++i] ?? null;
        if (!value) return { ok: false, token: `--${name}`, why: 'missing-argument' };
      } else if (takes) value = { ...a, text: a.text.slice(eq + 1) };
      else if (eq >= 0) return { ok: false, token: `--${name}`, why: 'unknown' };
      options.push({ name, value });
      continue;
    }
    for (let k = 1; k < a.text.length; k++) {
      const ch = a.text[k]!;
      if (spec.flags?.includes(ch)) options.push({ name: ch, value: null });
      else if (spec.withArg?.includes(ch)) {
        const rest = a.text.slice(k + 1);
        const value = rest ? { ...a, text: rest } : (args[++i] ?? null);
        if (!value) return { ok: false, token: `-${ch}`, why: 'missing-argument' };
        options.push({ name: ch, value });
        break;
      } else return { ok: false, token: `-${ch}`, why: 'unknown' };
    }
  }
  operands.push(...args.slice(i));
  return { ok: true, options, operands };
}

export function has(parsed: ParsedOptions, ...names: string[]): boolean {
  return parsed.options.some((o) => names.includes(o.name));
}
