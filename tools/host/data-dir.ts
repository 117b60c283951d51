/**
 * Where Toolgate keeps its state: the platform's user-data location unless `--data-dir` says
 * otherwise. It holds the SQLite database, the token, logs and the file tools' workspace. The
 * folder is the owner's alone (0700, every file in it 0600), also when it already existed, and
 * its secrets are named to the file tools by identity (dataDirSecrets).
 */
import { closeSync, constants, fchmodSync, mkdirSync, openSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { FileId, SecretFiles } from '../files';

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
  tightenDataDir(root);
  return layout;
}

/** Opened without following links, so a link in the data dir never turns the chmod onto another file. */
function chmodHere(path: string, mode: number): void {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    fchmodSync(fd, mode);
  } finally {
    closeSync(fd);
  }
}

/**
 * The data dir and every folder directly in it become 0700, every file directly in it and in
 * logs/ 0600: a data dir made by an older version (0755 folders, 0644 database and logs) or by
 * hand is closed to other accounts at start. The workspace's own files keep their modes (they
 * are the person's work; the workspace folder itself is 0700).
 */
export function tightenDataDir(root: string): void {
  if (process.platform === 'win32') return;
  chmodHere(root, 0o700);
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isFile()) chmodHere(path, 0o600);
    else if (entry.isDirectory()) {
      chmodHere(path, 0o700);
      if (entry.name === 'logs')
        for (const log of readdirSync(path, { withFileTypes: true }))
          if (log.isFile()) chmodHere(join(path, log.name), 0o600);
    }
  }
}

/**
 * Names in the data dir that no tool may read or change: the bearer token, the GitHub token, the
 * database and its journals, the host's address file, the logs, and the installed skills (only
 * skill_install and skill_uninstall, with approval, change those).
 */
export const SECRET_NAMES: ReadonlySet<string> = new Set([
  'token',
  'github-token',
  // The desktop app's GitHub token, sealed by the OS keychain (electron/main/github-token-keychain.ts).
  'github-token.enc',
  'skills',
  'toolgate.db',
  'toolgate.db-wal',
  'toolgate.db-shm',
  'toolgate.db-journal',
  'host.json',
  'logs',
]);

const idOf = (path: string): FileId | undefined => statSync(path, { throwIfNoEntry: false });
const same = (a: FileId, b: FileId | undefined) => b !== undefined && a.dev === b.dev && a.ino === b.ino;

function listed(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The identities of the secret files now, and of the folders that hold them: logs/, the data dir and each folder above
 * it.
 */
function secretIds(root: string): FileId[] {
  const paths = [...SECRET_NAMES].map((name) => join(root, name));
  for (const log of listed(join(root, 'logs'))) paths.push(join(root, 'logs', log));
  let real: string;
  try {
    real = realpathSync(root);
  } catch {
    real = root;
  }
  for (let d = real; ; d = dirname(d)) {
    paths.push(d);
    if (dirname(d) === d) break;
  }
  return paths.map(idOf).filter((id): id is FileId => id !== undefined);
}

/**
 * The file tools' view of the data dir's secrets, by (device, inode) identity rather than by
 * name, looked up afresh on each question (the -wal file comes and goes): whatever path, link or
 * race leads to the token or the database, and also with the workspace root set to the data dir
 * or a folder above it, the object is the same and is refused. A name in the data dir or in logs/
 * that does not exist yet is refused too, so no tool can plant a host.json or a token.
 */
export function dataDirSecrets(dir: string): SecretFiles {
  const root = resolve(dir);
  return ({ parent, name, id }) => {
    if (same(parent, idOf(root)) && SECRET_NAMES.has(name.toLowerCase())) return true;
    if (same(parent, idOf(join(root, 'logs')))) return true;
    return id !== undefined && secretIds(root).some((secret) => same(id, secret));
  };
}
