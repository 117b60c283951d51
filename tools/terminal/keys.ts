/**
 * What terminal.write sends: text, with key names in braces (`{Enter}`, `{Ctrl-C}`, `{Up}`,
 * `{F5}`, `{Alt-b}`) turned into the bytes a terminal sends for that key. Control characters may
 * also come as JSON escapes in the text itself ("\r", "\u001b"); backslashes are not interpreted,
 * so shell text such as `grep 'a\.b'` or `printf 'x\n'` reaches the program as written. A brace
 * that does not hold a known key name is plain text (`{a,b}`, `${HOME}`).
 *
 * Arrow, Home and End keys follow the screen's cursor-key mode, as a real terminal's do: full-screen
 * programs (less, vi) switch to application mode and expect `ESC O A` rather than `ESC [ A`.
 */

const FIXED: Record<string, string> = {
  Enter: '\r',
  Return: '\r',
  Tab: '\t',
  'Shift-Tab': '\x1b[Z',
  Esc: '\x1b',
  Escape: '\x1b',
  Backspace: '\x7f',
  Delete: '\x1b[3~',
  Insert: '\x1b[2~',
  PageUp: '\x1b[5~',
  PageDown: '\x1b[6~',
  Space: ' ',
  F1: '\x1bOP',
  F2: '\x1bOQ',
  F3: '\x1bOR',
  F4: '\x1bOS',
  F5: '\x1b[15~',
  F6: '\x1b[17~',
  F7: '\x1b[18~',
  F8: '\x1b[19~',
  F9: '\x1b[20~',
  F10: '\x1b[21~',
  F11: '\x1b[23~',
  F12: '\x1b[24~',
};

/** Keys whose bytes depend on the cursor-key mode: [normal, application]. */
const CURSOR: Record<string, [string, string]> = {
  Up: ['\x1b[A', '\x1bOA'],
  Down: ['\x1b[B', '\x1bOB'],
  Right: ['\x1b[C', '\x1bOC'],
  Left: ['\x1b[D', '\x1bOD'],
  Home: ['\x1b[H', '\x1bOH'],
  End: ['\x1b[F', '\x1bOF'],
};

const CTRL_SYMBOLS: Record<string, string> = {
  '@': '\x00',
  '[': '\x1b',
  '\\': '\x1c',
  ']': '\x1d',
  '^': '\x1e',
  _: '\x1f',
  '?': '\x7f',
};

export interface KeyOptions {
  /** The screen is in application cursor-key mode (DECCKM). */
  applicationCursor?: boolean;
}

/** The bytes of one key name, or undefined when the name is not a key. */
export function keyBytes(name: string, opts: KeyOptions = {}): string | undefined {
  const fixed = FIXED[name];
  if (fixed !== undefined) return fixed;
  const cursor = CURSOR[name];
  if (cursor) return cursor[opts.applicationCursor ? 1 : 0];
  const ctrl = /^Ctrl-(.)$/.exec(name);
  if (ctrl) {
    const c = ctrl[1]!;
    if (/[A-Za-z]/.test(c)) return String.fromCharCode(c.toUpperCase().charCodeAt(0) - 64);
    return CTRL_SYMBOLS[c];
  }
  const alt = /^Alt-(.)$/u.exec(name);
  if (alt) return `\x1b${alt[1]}`;
  return undefined;
}

/** Every key name terminal.write understands, told when a name it was sent is none of them. */
export const KEY_NAMES_HELP =
  'Enter, Tab, Shift-Tab, Esc, Backspace, Delete, Insert, Up, Down, Left, Right, Home, End, PageUp, PageDown, ' +
  'Space, F1–F12, Ctrl-A…Ctrl-Z, Ctrl-[ Ctrl-\\ Ctrl-] Ctrl-^ Ctrl-_ Ctrl-@, Alt-<character>';

const KEY_NAME = /\{([A-Za-z][A-Za-z0-9]*(?:-[^{}\s])?|Shift-Tab)\}/gu;

/** Turns terminal.write's data into the bytes to send (see the file comment). */
export function encodeKeys(data: string, opts: KeyOptions = {}): string {
  return data.replace(KEY_NAME, (whole, name: string) => keyBytes(name, opts) ?? whole);
}

/**
 * Braces that look like a key name a model meant but are none, so went as text: a capital then a
 * lower-case letter ({Entr}, {ArrowUp}) or a modifier ({Ctrl-1}). `${HOME}` and `{a,b}` are text
 * on purpose and are not named.
 */
export function unknownKeyNames(data: string): string[] {
  const names = [...data.matchAll(KEY_NAME)].map((m) => m[1] ?? '');
  return [...new Set(names.filter((n) => /^[A-Z][a-z]|^(Ctrl|Alt|Shift)-/.test(n) && keyBytes(n, {}) === undefined))];
}

/**
 * Whether sending these bytes could make a program act: a line end, or any other control character
 * (Tab runs completion code in bash, Esc starts sequences and key bindings). Plain printable text is
 * the only thing that cannot, and only while a shell's line editor is reading it.
 */
export function hasControlBytes(text: string): boolean {
  // C0 controls including tab, CR and LF, and the C1 range, which some terminals also act on.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this looks for
  return /[\x00-\x1f\x80-\x9f]/.test(text);
}

/** A visible rendering of bytes for an approval card: control characters as key names. */
export function describeKeys(text: string): string {
  const names: Record<string, string> = {
    '\r': '{Enter}',
    '\n': '{Ctrl-J}',
    '\t': '{Tab}',
    '\x1b': '{Esc}',
    '\x7f': '{Backspace}',
  };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this renders
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => {
    const known = names[c];
    if (known) return known;
    const code = c.charCodeAt(0);
    if (code < 0x20) return `{Ctrl-${String.fromCharCode(code + 64)}}`;
    return `{U+${code.toString(16).toUpperCase().padStart(4, '0')}}`;
  });
}
