/**
 * `npm run bench` runs every benchmark; `npm run bench -- NAME` runs one. Each benchmark is a
 * module in bench/ named NAME.bench.ts that prints ratios against its peer, measured in the same
 * run, and ends with one line of JSON.
 */
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const wanted = process.argv.slice(2);
const available = readdirSync(__dirname)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .sort();
const unknown = wanted.filter((w) => !available.includes(w));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${available.join(', ') || '(none)'}`);
  process.exit(2);
}
let failed = false;
for (const name of wanted.length > 0 ? wanted : available) {
  console.log(`\n== bench ${name} ==`);
  // Each benchmark runs in its own process so heap measurements and JIT state do not leak between them.
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(__dirname, `${name}.bench.ts`)], {
    stdio: 'inherit',
  });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
