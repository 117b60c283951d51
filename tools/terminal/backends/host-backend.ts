/**
 * `host`: a shell on the person's own machine, as their user, through a PTY. Off until the person
 * turns on the setting terminalHostEnabled (only their UI session can change settings). The shell
 * gets a plain environment (home, user, language, path) rather than the host process's, so no
 * token or secret the host was started with reaches it.
 */
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { makeOutputDir } from './output-dir';
import { spawnPtyProcess } from './pty-process';
import type { SpawnRequest, TerminalProcess } from './types';

export const HOST_SETTING = 'terminalHostEnabled';

const PASSED_ENV = [
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'PATH',
  'SHELL',
  'DISPLAY',
  'XDG_RUNTIME_DIR',
];

export function hostShell(env: NodeJS.ProcessEnv = process.env): string {
  const candidates = [env.SHELL, '/bin/bash', '/bin/sh'].filter((s): s is string => !!s);
  return candidates.find((s) => existsSync(s)) ?? '/bin/sh';
}

export function hostEnvironment(marker: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of PASSED_ENV) {
    const value = env[key];
    if (value !== undefined) out[key] = value;
  }
  out.HOME ??= userInfo().homedir;
  out.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  out.TERM = 'xterm-256color';
  out.COLORTERM = 'truecolor';
  out.TOOLGATE_TERMINAL = marker;
  return out;
}

export function spawnHostShell(req: SpawnRequest): TerminalProcess {
  const shell = hostShell();
  const outputDir = makeOutputDir();
  return spawnPtyProcess({
    outputDir: { host: outputDir, shell: outputDir },
    file: shell,
    args: [],
    env: hostEnvironment(req.marker),
    cwd: req.workspace,
    cols: req.cols,
    rows: req.rows,
    marker: req.marker,
    describe: `${shell} on this machine`,
  });
}
