/**
 * Where a worker entry lives in each runtime. The Electron bundle (electron-vite) emits it as
 * `<name>.js` next to the code that starts it (out/main); the headless host run by tsx and the
 * tests run the TypeScript source, which a worker thread can load only through tsx's loader,
 * because the parent's loader hooks are not inherited when execArgv is given.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface WorkerScript {
  file: string;
  execArgv: string[];
}

/** The built `<dir>/<name>.js` when present, else `<dir>/<name>.ts` through tsx. */
export function resolveWorkerScript(dir: string, name: string): WorkerScript {
  const built = join(dir, `${name}.js`);
  if (existsSync(built)) return { file: built, execArgv: [] };
  const source = join(dir, `${name}.ts`);
  if (!existsSync(source)) throw new Error(`No worker entry "${name}" in ${dir} (neither .js nor .ts).`);
  // The project's own tsx, as an absolute file URL, so it is found whatever the working directory is.
  const tsxLoader = pathToFileURL(createRequire(__filename).resolve('tsx')).href;
  // Before tsx: the thread is lowered first, so loading the TypeScript runs at the worker's priority.
  const priority = join(__dirname, 'worker-priority.mjs');
  const lowered = existsSync(priority) ? ['--import', pathToFileURL(priority).href] : [];
  return { file: source, execArgv: [...lowered, '--import', tsxLoader] };
}
