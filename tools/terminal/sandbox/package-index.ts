/**
 * The packages of a root file system, read as files from the tree: installed ones from dpkg's
 * status database, available ones from apt's downloaded lists. Listing and searching never run
 * a program inside the sandbox, whose files anything in it may have changed.
 */
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface PackageInfo {
  name: string;
  version: string;
  summary: string;
}

const MAX_FILE = 256 * 1024 * 1024;

function readTreeFile(path: string): string | undefined {
  try {
    const s = lstatSync(path);
    if (!s.isFile() || s.size > MAX_FILE) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function* stanzas(text: string): Generator<Map<string, string>> {
  let fields = new Map<string, string>();
  let last = '';
  for (const line of text.split('\n')) {
    if (line === '') {
      if (fields.size > 0) yield fields;
      fields = new Map();
      continue;
    }
    if (line.startsWith(' ') || line.startsWith('\t')) continue; // continuation (long descriptions)
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    last = line.slice(0, colon);
    fields.set(last, line.slice(colon + 1).trim());
  }
  if (fields.size > 0) yield fields;
}

export function installedPackages(tree: string): PackageInfo[] {
  const text = readTreeFile(join(tree, 'var', 'lib', 'dpkg', 'status'));
  if (!text) return [];
  const out: PackageInfo[] = [];
  for (const f of stanzas(text)) {
    if (!/\binstalled$/.test(f.get('Status') ?? '')) continue;
    out.push({ name: f.get('Package') ?? '', version: f.get('Version') ?? '', summary: f.get('Description') ?? '' });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Packages in apt's lists whose name or summary contains every word of the query. */
export function searchPackages(
  tree: string,
  query: string,
  limit: number,
): { results: PackageInfo[]; lists: number; truncated: boolean } {
  const dir = join(tree, 'var', 'lib', 'apt', 'lists');
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('_Packages'));
  } catch {
    // no lists yet
  }
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const seen = new Set<string>();
  const results: PackageInfo[] = [];
  let truncated = false;
  for (const name of names) {
    const text = readTreeFile(join(dir, name));
    if (!text) continue;
    for (const f of stanzas(text)) {
      const pkg = f.get('Package') ?? '';
      const summary = f.get('Description') ?? '';
      const hay = `${pkg} ${summary}`.toLowerCase();
      if (seen.has(pkg) || !words.every((w) => hay.includes(w))) continue;
      seen.add(pkg);
      if (results.length >= limit) {
        truncated = true;
        break;
      }
      results.push({ name: pkg, version: f.get('Version') ?? '', summary });
    }
  }
  return { results: results.sort((a, b) => a.name.localeCompare(b.name)), lists: names.length, truncated };
}
