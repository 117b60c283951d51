/**
 * `npm run check:layers`: fails (exit 1) when an import crosses a layer boundary of
 * docs/architecture.md#parts-and-layers.
 */
import { resolve } from 'node:path';
import { checkLayers } from './lib/layers';

const violations = checkLayers(resolve(__dirname, '..'));
for (const v of violations) console.error(`${v.file}: imports '${v.specifier}' — ${v.rule}`);
if (violations.length > 0) {
  console.error(`layering check failed: ${violations.length} violation(s)`);
  process.exit(1);
}
console.log('layering check passed');
