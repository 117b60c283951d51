#!/usr/bin/env node
// Entry point of the `toolgate` command: runs the TypeScript CLI through tsx.
require('tsx/cjs');
require('../tools/host/cli.ts')
  .main(process.argv.slice(2))
  .catch((e) => {
    process.stderr.write(`toolgate: ${e?.stack ? e.stack : e}\n`);
    process.exit(1);
  });
