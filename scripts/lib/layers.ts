/**
 * The layering rules of docs/architecture.md#parts-and-layers, as a check that fails. Each source
 * file's imports are read (static `import … from`, `export … from`, dynamic `import()` and
 * `require()`) and judged by the layer the file lives in. Returns the violations; an empty list
 * means the tree is clean.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

/** `from '…'`, `import('…')`, `require('…')` and a bare `import '…'`: the module named is group 1, 2, 3 or 4. */
const IMPORT_PATTERN = new RegExp(
  [
    String.raw`(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]`,
    String.raw`import\s*\(\s*['"]([^'"]+)['"]\s*\)`,
    String.raw`require\s*\(\s*['"]([^'"]+)['"]\s*\)`,
    String.raw`^\s*import\s*['"]([^'"]+)['"]`,
  ].join('|'),
  'gm',
);

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(IMPORT_PATTERN)) {
    const spec = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (spec) found.push(spec);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts|cts)$/.test(name) ? [full] : [];
  });
}

/** The top-level layer of a path relative to the root, and for tools/ the family folder. */
function layerOf(relPath: string): { top: string; sub: string } {
  const parts = relPath.split(sep);
  return { top: parts[0] ?? '', sub: parts[1] ?? '' };
}

function judge(fileRel: string, spec: string, targetRel: string | null): string | null {
  const from = layerOf(fileRel);
  const isPackage = targetRel === null;
  const pkgName = isPackage
    ? spec
        .split('/')
        .slice(0, spec.startsWith('@') ? 2 : 1)
        .join('/')
    : '';
  const to = targetRel ? layerOf(targetRel) : null;

  if (from.top === 'tools') {
    if (isPackage && pkgName === 'electron') return 'tools/ never imports electron';
    if (to && (to.top === 'renderer' || to.top === 'electron')) return `tools/ never imports ${to.top}/`;
    if (from.sub === 'core' && to && to.top === 'tools' && to.sub !== 'core')
      return 'tools/core never imports a tool family';
  }
  if (from.top === 'shared') {
    if (isPackage && pkgName !== 'zod') return 'shared/ imports only zod';
    if (to && to.top !== 'shared') return 'shared/ imports only zod and itself';
  }
  if (from.top === 'renderer') {
    if (isPackage && (pkgName === 'electron' || NODE_BUILTINS.has(spec)))
      return 'renderer/ never sees Node or Electron';
    if (to && to.top !== 'renderer' && to.top !== 'shared') return 'renderer/ imports only shared/';
  }
  return null;
}

export function checkLayers(root: string): Violation[] {
  const violations: Violation[] = [];
  for (const top of ['tools', 'shared', 'renderer']) {
    for (const file of sourceFiles(join(root, top))) {
      const fileRel = relative(root, file);
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        const targetRel = spec.startsWith('.') ? relative(root, resolve(dirname(file), spec)) : null;
        const rule = judge(fileRel, spec, targetRel);
        if (rule) violations.push({ file: fileRel, specifier: spec, rule });
      }
    }
  }
  return violations;
}
