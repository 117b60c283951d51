#!/usr/bin/env node
// Entry point of the `toolgate` command: runs the built CLI (out/main/cli.js, made by `npm run build`).
// Without a build it runs the TypeScript source through tsx instead, which starts several seconds slower.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const built = join(__dirname, '..', 'out', 'main', 'cli.js');
let cli;
if (existsSync(built)) {
  cli = require(built);
} else {
  process.stderr.write(
    `toolgate: ${built} is not built (npm run build makes it); ` +
      'running the TypeScript source through tsx, which starts slower\n',
  );
  // Both hooks: `serve` loads the host with a dynamic import(), which the CommonJS hook alone does not see.
  require('tsx/esm/api').register();
  require('tsx/cjs');
  cli = require('../tools/host/cli.ts');
}
cli.main(process.argv.slice(2)).catch((e) => {
  process.stderr.write(`toolgate: ${e?.stack ? e.stack : e}\n`);
  process.exit(1);
});
