/**
 * Part of `npm run lint`: fails (exit 1) when a source line is longer than 120 characters, naming
 * each as file:line with its width (scripts/lib/line-width.ts says which files and why).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { MAX_LINE_WIDTH, findLongLines, sourceFiles } from './lib/line-width';

const root = resolve(__dirname, '..');
// A file deleted from the work tree but not yet from the index has no lines to check.
const files = sourceFiles(root).filter((file) => existsSync(resolve(root, file)));
const long = findLongLines(root, files);
for (const l of long) console.error(`${l.file}:${l.line}: ${l.width} characters (at most ${MAX_LINE_WIDTH})`);
if (long.length > 0) {
  console.error(`line width check failed: ${long.length} line(s) over ${MAX_LINE_WIDTH} characters`);
  process.exit(1);
}
console.log(`line width check passed: no source line over ${MAX_LINE_WIDTH} characters`);
