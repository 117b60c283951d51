/**
 * The line terminal.run types at the prompt: the command between two printf calls that print a
 * start and an end marker, the end one with `$?`, so the run knows where the command's output
 * begins and ends and how it exited. The nonce is fresh per run, so output of an earlier run cannot
 * end a later one. Plain POSIX sh. Nobody sees this framing: run-framing.ts shows the command alone
 * in its place and removes the markers, for the person and the model alike.
 *
 * Two styles: `osc` wraps the markers in an operating-system-command sequence (ESC ] 7770 ; … BEL)
 * (bash, dash, busybox ash and mksh printf all know `\033`). The typed line holds `\033` as four
 * characters, never the ESC byte itself, so its echo cannot look like a marker. `text` prints the
 * markers as lines, for shells whose printf knows no octal escapes (the virtual phone's), joining
 * two words (`printf '%s%s' __tg_S _N`) so the echo, which shows the words apart, is no marker.
 */

export type MarkerStyle = 'osc' | 'text';

export interface RunLine {
  /** What to type (without the line end). */
  line: string;
  /** The typed line's beginning up to its nonce: how its echo is recognised. */
  typed: string;
  /** The whole start marker; with `text`, output begins after the line end that follows it. */
  start: string;
  /** The end marker up to the exit status digits. */
  end: string;
  style: MarkerStyle;
}

/**
 * Drops a trailing `#` comment (a `#` that starts a word outside quotes), which would otherwise
 * swallow the end marker. The comment ran nothing, so nothing is lost.
 */
export function stripComment(command: string): string {
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === '\\') {
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '#' && (i === 0 || /[\s;&|()]/.test(command[i - 1]!))) {
      return command.slice(0, i);
    }
  }
  return command;
}

/** Why a command cannot be typed as one line and end cleanly, or undefined when it can. */
export function unrunnable(command: string): string | undefined {
  if (/[\r\n]/.test(command))
    return 'it spans several lines; join them with ";" or "&&", or type them with terminal.write';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this refuses
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(command)) return 'it holds control characters; send keys with terminal.write';
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === '\\') {
      if (i === command.length - 1) return 'it ends with a backslash, so the shell would wait for a next line';
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') quote = c;
  }
  if (quote) return `a ${quote === "'" ? 'single' : 'double'} quote is not closed, so the shell would wait for more`;
  return undefined;
}

/** A path quoted for sh: in single quotes, each quote in it closed, escaped and opened again. */
export function shellQuote(path: string): string {
  return `'${path.replace(/'/g, `'\\''`)}'`;
}

/**
 * `redirect`: a pipe-mode run's FIFO, as the shell sees it (made by the host, never from the
 * arguments). The command then runs as a group in the shell itself (`{ …; }`, so `cd` and variables
 * stay, as at the prompt) with its output and errors sent there.
 */
export function buildRunLine(command: string, nonce: string, style: MarkerStyle = 'text', redirect?: string): RunLine {
  let body = stripComment(command).trim();
  // A trailing `;` would make `;;`; a trailing `&` already separates the next command.
  while (body.endsWith(';') && !body.endsWith('\\;')) body = body.slice(0, -1).trimEnd();
  let background = /(^|[^&])&$/.test(body);
  if (redirect !== undefined) {
    body = `{ ${body === '' ? ':' : body}${background ? ' ' : '; '}} >${shellQuote(redirect)} 2>&1`;
    background = false;
  }
  const sep = body === '' ? '' : background ? ' ' : '; ';
  if (style === 'osc')
    return {
      line: `printf '\\033]7770;S${nonce}\\007';${body}${sep}printf '\\033]7770;E${nonce}_%d\\007' $?`,
      typed: `printf '\\033]7770;S${nonce}`,
      start: `\x1b]7770;S${nonce}\x07`,
      end: `\x1b]7770;E${nonce}_`,
      style,
    };
  return {
    line: `printf '%s%s\\n' __tg_S _${nonce}; ${body}${sep}printf '%s%s_%d\\n' __tg_E _${nonce} $?`,
    typed: `printf '%s%s\\n' __tg_S _${nonce}`,
    start: `__tg_S_${nonce}`,
    end: `__tg_E_${nonce}_`,
    style,
  };
}
