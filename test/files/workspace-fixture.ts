/**
 * A real temporary workspace for the files tests: `root/` is the workspace, `outside/` holds
 * sentinel files that no tool may read, change, list, move or delete, and `root/` contains
 * symbolic links that lead out (to a file, to a directory, and dangling).
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SENTINEL = 'SENTINEL-7f3a-do-not-leak';

export interface Workspace {
  base: string;
  root: string;
  outside: string;
  /** Every file under outside/ with its content, to compare after the attacks. */
  snapshotOutside(): Record<string, string>;
  write(rel: string, content: string | Buffer): void;
  read(rel: string): string;
  exists(rel: string): boolean;
  cleanup(): void;
}

function snapshot(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    const rel = `${prefix}${name}`;
    if (statSync(full).isDirectory()) Object.assign(out, { [`${rel}/`]: 'dir' }, snapshot(full, `${rel}/`));
    else out[rel] = readFileSync(full, 'utf8');
  }
  return out;
}

export function makeWorkspace(): Workspace {
  const base = mkdtempSync(join(tmpdir(), 'toolgate-files-'));
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'src', 'nested'), { recursive: true });
  mkdirSync(join(outside, 'secret-dir'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), `${SENTINEL} file\n`);
  writeFileSync(join(outside, 'secret-dir', 'inner.txt'), `${SENTINEL} inner\n`);
  writeFileSync(join(base, 'sibling.txt'), `${SENTINEL} sibling\n`);
  mkdirSync(join(base, 'root-evil'));
  writeFileSync(join(base, 'root-evil', 'x.txt'), `${SENTINEL} prefix-sibling\n`);
  writeFileSync(join(root, 'hello.txt'), 'hello\nworld\n');
  writeFileSync(join(root, 'src', 'app.ts'), 'export const answer = 42;\n');
  writeFileSync(join(root, 'src', 'nested', 'deep.ts'), 'export const deep = true;\n');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link-out.txt'));
  symlinkSync(join(outside, 'secret-dir'), join(root, 'link-out-dir'));
  symlinkSync('../outside/secret.txt', join(root, 'relative-link-out.txt'));
  symlinkSync(join(base, 'missing-target'), join(root, 'dangling'));
  symlinkSync(join(root, 'hello.txt'), join(root, 'link-in.txt'));
  return {
    base,
    root,
    outside,
    snapshotOutside: () => ({
      ...snapshot(outside),
      sibling: readFileSync(join(base, 'sibling.txt'), 'utf8'),
      prefixSibling: readFileSync(join(base, 'root-evil', 'x.txt'), 'utf8'),
    }),
    write: (rel, content) => {
      mkdirSync(join(root, rel, '..'), { recursive: true });
      writeFileSync(join(root, rel), content);
    },
    read: (rel) => readFileSync(join(root, rel), 'utf8'),
    exists: (rel) => {
      try {
        statSync(join(root, rel));
        return true;
      } catch {
        return false;
      }
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}
