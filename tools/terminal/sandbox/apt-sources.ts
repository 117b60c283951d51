/**
 * The Debian mirror and release this machine's apt uses, read from /etc/apt/sources.list (one-line
 * format) and /etc/apt/sources.list.d/*.list and *.sources (deb822), so the sandbox bootstraps from
 * the same mirror the person's machine already trusts and reaches. Security and update suites are
 * skipped; the first plain Debian `deb` source wins.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface AptSource {
  mirror: string;
  suite: string;
  /** The file it was read from. */
  from: string;
}

const SKIP_SUITE = /-(security|updates|backports|proposed-updates)$|\/updates$/;

function fromOneLine(text: string, from: string): AptSource | undefined {
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    const m = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)/.exec(line);
    if (m && !SKIP_SUITE.test(m[2]!) && /debian/.test(m[1]!) && !/security/.test(m[1]!))
      return { mirror: m[1]!, suite: m[2]!, from };
  }
  return undefined;
}

function fromDeb822(text: string, from: string): AptSource | undefined {
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    for (const line of stanza.split('\n')) {
      if (line.startsWith('#')) continue;
      const m = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
      if (m) fields.set(m[1]!.toLowerCase(), m[2]!.trim());
    }
    if (fields.get('enabled') === 'no') continue;
    if (!(fields.get('types') ?? '').split(/\s+/).includes('deb')) continue;
    const mirror = (fields.get('uris') ?? '').split(/\s+/)[0];
    const suite = (fields.get('suites') ?? '').split(/\s+/).find((s) => s && !SKIP_SUITE.test(s));
    if (mirror && suite && /debian/.test(mirror) && !/security/.test(mirror)) return { mirror, suite, from };
  }
  return undefined;
}

export function readAptSource(etc = '/etc/apt'): AptSource | undefined {
  const main = join(etc, 'sources.list');
  if (existsSync(main)) {
    const found = fromOneLine(readFileSync(main, 'utf8'), main);
    if (found) return found;
  }
  const dir = join(etc, 'sources.list.d');
  if (!existsSync(dir)) return undefined;
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    const found = name.endsWith('.sources')
      ? fromDeb822(text, path)
      : name.endsWith('.list')
        ? fromOneLine(text, path)
        : undefined;
    if (found) return found;
  }
  return undefined;
}
