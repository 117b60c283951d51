/**
 * Where Toolgate keeps its state: the platform's user-data location unless `--data-dir` says
 * otherwise. It holds the SQLite database, the token, logs and the file tools' workspace.
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Toolgate');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Toolgate');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Toolgate');
}

export interface DataDirLayout {
  root: string;
  database: string;
  token: string;
  logs: string;
  workspace: string;
}

export function prepareDataDir(dir: string): DataDirLayout {
  const root = resolve(dir);
  const layout: DataDirLayout = {
    root,
    database: join(root, 'toolgate.db'),
    token: join(root, 'token'),
    logs: join(root, 'logs'),
    workspace: join(root, 'workspace'),
  };
  for (const d of [root, layout.logs, layout.workspace]) mkdirSync(d, { recursive: true, mode: 0o700 });
  return layout;
}
