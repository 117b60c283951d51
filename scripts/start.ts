/**
 * `npm start`: the Electron window when the Electron binary is installed; otherwise one line
 * saying so, and the headless host with the UI address printed. Builds the bundles first when
 * they are missing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..');

function electronBinary(): string | undefined {
  try {
    // Outside Electron, require('electron') returns the binary's path, or throws when it was never downloaded.
    const path = require('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

if (!existsSync(join(root, 'out', 'renderer', 'index.html')) || !existsSync(join(root, 'out', 'main', 'index.js'))) {
  process.stderr.write('Building Toolgate (first start)…\n');
  const build = spawnSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const binary = electronBinary();
if (binary) {
  const child = spawn(binary, [root, ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  process.stderr.write('The Electron binary is not installed here; running the headless host instead.\n');
  void import('../tools/host/cli').then((cli) => cli.serve(process.argv.slice(2), 'electron-fallback'));
}
