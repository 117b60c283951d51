/**
 * What a root file system is: /etc/os-release (or /usr/lib/os-release) read from the tree as a
 * file, never by running anything in it, and never following a link out of the tree.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface OsRelease {
  id?: string;
  name?: string;
  version?: string;
  codename?: string;
  pretty?: string;
}

function readPlain(path: string): string | undefined {
  try {
    if (!lstatSync(path).isFile()) return undefined;
    return readFileSync(path, 'utf8').slice(0, 16_384);
  } catch {
    return undefined;
  }
}

export function readOsRelease(tree: string): OsRelease | undefined {
  const text = readPlain(join(tree, 'etc', 'os-release')) ?? readPlain(join(tree, 'usr', 'lib', 'os-release'));
  if (!text) return undefined;
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) fields.set(m[1]!, m[2]!.replace(/^["']|["']$/g, ''));
  }
  const pick = (k: string) => fields.get(k);
  const out: OsRelease = {};
  const set = (key: keyof OsRelease, value: string | undefined) => {
    if (value) out[key] = value;
  };
  set('id', pick('ID'));
  set('name', pick('NAME'));
  set('version', pick('VERSION_ID'));
  set('codename', pick('VERSION_CODENAME'));
  set('pretty', pick('PRETTY_NAME'));
  return out;
}
