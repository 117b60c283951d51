/**
 * `npm start`: the Electron window when the Electron binary is installed; otherwise one line
 * saying so, and the headless host with the UI address printed. Builds the bundles first when
 * they are missing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..');

/**
 * The installed Electron binary, without triggering a download: `require('electron')` in Electron 45
 * downloads the binary on first use, which cannot work offline and would print to stdout.
 */
function electronBinary(): string | undefined {
  const pkg = join(root, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(pkg, 'dist');
  if (!relative) return undefined;
  const full = join(dist, relative);
  return existsSync(full) ? full : undefined;
}

function electronVersion(): string {
  const pkg = join(root, 'node_modules', 'electron', 'package.json');
  return existsSync(pkg)
    ? (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version
    : '(see package.json)';
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
  process.stderr.write(
    [
      'The Electron binary is not installed: Electron 45 downloads it on its own, not through npm ci.',
      `To get it, run \`node node_modules/electron/install.js\`: it downloads Electron ${electronVersion()} for this`,
      'platform (about 100 MB) from github.com/electron/electron/releases over the internet (ELECTRON_MIRROR',
      'names a mirror). Then run `npm start` again.',
      'Running the headless host instead; open the UI address it prints in Chrome or Chromium.',
      '',
    ].join('\n'),
  );
  void import('../tools/host/cli').then((cli) => cli.serve(process.argv.slice(2), 'electron-fallback'));
}
