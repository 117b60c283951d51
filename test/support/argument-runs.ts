/**
 * The check behind "no argument text is written down": does any 8-character run of an argument
 * value occur in a text? Compared case-insensitively, character by character, in the text as it
 * is, with JSON escapes undone (a value inside a stored JSON string) and with percent-escapes
 * decoded (a value inside a URL). Written independently of the cleaner it checks.
 */

export const RUN = 8;

/** Lower case, character by character (a letter whose lower case is longer stays as it is). */
function fold(text: string): string {
  let out = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    out += lower.length === ch.length ? lower : ch;
  }
  return out;
}

function jsonUnescaped(text: string): string {
  const simple: Record<string, string> = {
    '"': '"',
    '\\': '\\',
    '/': '/',
    b: '\b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
  };
  return text.replace(/\\u([0-9a-fA-F]{4})|\\(["\\/bfnrt])/g, (_m, hex: string | undefined, c: string | undefined) =>
    hex !== undefined ? String.fromCharCode(Number.parseInt(hex, 16)) : (simple[c as string] as string),
  );
}

function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** Every run of RUN units of a value, case-folded. */
export function runsOf(value: string): string[] {
  const folded = fold(value);
  const out: string[] = [];
  for (let i = 0; i + RUN <= folded.length; i++) out.push(folded.slice(i, i + RUN));
  return out;
}

export interface Leak {
  value: string;
  run: string;
  context: string;
}

/** The first run of an argument value found in `text`, with the text around it; undefined when there is none. */
export function findLeak(text: string, values: Iterable<string>): Leak | undefined {
  const owner = new Map<string, string>();
  for (const value of values) for (const run of runsOf(value)) if (!owner.has(run)) owner.set(run, value);
  if (owner.size === 0) return undefined;
  for (const view of [text, jsonUnescaped(text), percentDecoded(text)]) {
    const haystack = fold(view);
    for (let i = 0; i + RUN <= haystack.length; i++) {
      const value = owner.get(haystack.slice(i, i + RUN));
      if (value !== undefined) {
        return { value, run: haystack.slice(i, i + RUN), context: haystack.slice(Math.max(0, i - 60), i + 68) };
      }
    }
  }
  return undefined;
}
