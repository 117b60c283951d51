/**
 * What loading a module loads with it: the packages reached from an entry file through static
 * value imports (`import … from`, `export … from`, a bare `import '…'`), following the project's own
 * files. Type-only imports are erased by the compiler and dynamic `import()` runs only when called,
 * so neither counts. Used to keep heavy packages off the host's start (docs/architecture.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const STATIC_IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+([^'";]*?)\s*from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

/** `type X`, `{ type A, type B }` and `type { A }` bring in no value. */
function typeOnly(clause: string): boolean {
  if (/^type\s/.test(clause)) return true;
  const braces = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!braces) return false;
  const names = braces[1]!
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}

function resolveFile(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base].find((f) => existsSync(f) && f.match(/\.tsx?$/));
}

/** The package name of a bare specifier: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Packages (and `node:` builtins) an entry loads at once, each with one chain of files that imports it. */
export function packagesLoadedBy(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(STATIC_IMPORT)) {
      const clause = m[1];
      const spec = m[2] ?? m[3];
      if (!spec || (clause !== undefined && typeOnly(clause))) continue;
      if (spec.startsWith('.')) {
        const target = resolveFile(file, spec);
        if (target) walk(target, [...chain, target]);
      } else if (!packages.has(packageOf(spec))) packages.set(packageOf(spec), chain);
    }
  };
  walk(entry, [entry]);
  return packages;
}
