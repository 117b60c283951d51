/**
 * Whether a sed script or an awk program given on the command line can only read. sed is read
 * command by command (addresses, `s///` with its flags, `y`, text and label commands): `w`, `W`,
 * `e`, the `s` flags `w` and `e`, and anything not understood make it a writer. awk programs are
 * judged by what they could contain: output redirection and pipes (`>`, `|`), `system`,
 * `getline`, `close`, `fflush` and gawk's `@` directives are all refused, whatever they mean in
 * context, since a comparison `$1 > 5` and a redirection look alike without a full awk parser.
 */

/** The offending command or flag of a sed script, or null when it only reads. */
export function sedWriter(script: string): string | null {
  let i = 0;
  const s = script;
  const skip = (chars: string) => {
    while (i < s.length && chars.includes(s[i]!)) i++;
  };
  const delimited = (delim: string): boolean => {
    while (i < s.length && s[i] !== delim) {
      if (s[i] === '\n') return false;
      i += s[i] === '\\' ? 2 : 1;
    }
    if (i >= s.length) return false;
    i++;
    return true;
  };
  const address = (): boolean => {
    if (/[0-9]/.test(s[i] ?? '')) {
      skip('0123456789');
      if (s[i] === '~') {
        i++;
        skip('0123456789');
      }
    } else if (s[i] === '$') i++;
    else if (s[i] === '/' || s[i] === '\\') {
      const delim = s[i] === '\\' ? s[i + 1] : '/';
      i += s[i] === '\\' ? 2 : 1;
      if (!delim || !delimited(delim)) return false;
      skip('IM');
    } else if (s[i] === '+' || s[i] === '~') {
      i++;
      skip('0123456789');
    }
    return true;
  };
  for (;;) {
    skip(' \t\n;');
    if (i >= s.length) return null;
    if (s[i] === '#') {
      while (i < s.length && s[i] !== '\n') i++;
      continue;
    }
    if (!address()) return 'an address';
    skip(' \t');
    if (s[i] === ',') {
      i++;
      skip(' \t');
      if (!address()) return 'an address';
    }
    skip(' \t!');
    const c = s[i++];
    if (c === undefined) return null;
    if ('{}=dDgGhHlnNpPxzF'.includes(c)) {
      if (c === 'l') skip('0123456789');
    } else if ('qQ'.includes(c)) {
      skip(' \t0123456789');
    } else if (':btTv'.includes(c)) {
      while (i < s.length && s[i] !== '\n' && s[i] !== ';' && s[i] !== '}') i++;
    } else if ('aicrR'.includes(c)) {
      // Text or a file to read, up to the end of the line (a trailing backslash continues it).
      while (i < s.length && s[i] !== '\n') i += s[i] === '\\' ? 2 : 1;
    } else if (c === 's' || c === 'y') {
      const delim = s[i++];
      if (!delim || delim === '\n' || delim === '\\') return c;
      if (!delimited(delim) || !delimited(delim)) return c;
      if (c === 's') {
        while (i < s.length && /[gpiImM0-9]/.test(s[i]!)) i++;
        if (s[i] === 'w' || s[i] === 'W' || s[i] === 'e') return `s///${s[i]}`;
      }
    } else return c;
    skip(' \t');
    if (i < s.length && !'\n;}#'.includes(s[i]!)) return s[i]!;
  }
}

const AWK_WRITERS = /[>|@]|\bsystem\b|\bgetline\b|\bclose\b|\bfflush\b/;

/** The offending part of an awk program, or null when it only reads and prints. */
export function awkWriter(program: string): string | null {
  return AWK_WRITERS.exec(program)?.[0] ?? null;
}
