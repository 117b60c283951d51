/**
 * The one way a value reaches a device shell: as a single quoted word. `sh` is a tagged template
 * whose literal parts are the command Toolgate wrote and whose every interpolated value is quoted,
 * so a model's string can never become shell syntax: `sh\`pm path ${name}\`` → `pm path 'a;b'`.
 * Single quotes keep everything literal in POSIX sh; a quote inside is written `'\''`. NUL cannot
 * be passed through a command line at all, so it is refused as an argument error.
 */
import { ToolCallError } from '../core/result';

/** Already-quoted shell text (several words), made only by this module. */
export class ShellWords {
  private constructor(readonly text: string) {}

  /** Each value as its own quoted word, separated by spaces. */
  static of(values: readonly (string | number)[]): ShellWords {
    return new ShellWords(values.map(word).join(' '));
  }
}

export function containsNul(value: string): boolean {
  return value.includes('\0');
}

/** `value` as one single-quoted shell word. */
export function quote(value: string): string {
  if (containsNul(value)) {
    throw new ToolCallError(
      'INVALID_ARGUMENT',
      'An argument contains a NUL byte, which cannot be passed to a device shell.',
      {
        hint: 'Remove the NUL (\\u0000) character from the argument and retry.',
      },
    );
  }
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function word(value: string | number): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new ToolCallError('INVALID_ARGUMENT', `A numeric argument is not a finite number (${value}).`);
    return String(value);
  }
  return quote(value);
}

/** Builds a device command line: literal parts as written, every value quoted (numbers as digits). */
export function sh(strings: TemplateStringsArray, ...values: readonly (string | number | ShellWords)[]): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    out += value instanceof ShellWords ? value.text : word(value);
    out += strings[i + 1] ?? '';
  }
  return out;
}
