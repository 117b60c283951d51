/**
 * Which program confines the sandbox, decided once per host: bubblewrap when it can make its
 * namespaces here (it needs user namespaces, or root), else PRoot (ptrace-based path translation,
 * the seed's choice on phones), else none; with the reason for the choice, which
 * terminal.backends reports.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface RunnerPaths {
  bwrap: string;
  proot: string;
}

export const DEFAULT_RUNNER_PATHS: RunnerPaths = { bwrap: '/usr/bin/bwrap', proot: '/usr/bin/proot' };

export type Runner =
  | { kind: 'bubblewrap'; path: string; why: string }
  | { kind: 'proot'; path: string; why: string }
  | { kind: 'none'; why: string };

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 200) ?? '';
}

/** Tries bubblewrap with the namespaces the sandbox uses; the error it prints is the reason it cannot run. */
export function probeBubblewrap(path: string): { ok: true } | { ok: false; why: string } {
  if (!existsSync(path)) return { ok: false, why: `bubblewrap is not installed (${path}; Debian package bubblewrap)` };
  const probe = spawnSync(
    path,
    [
      '--unshare-all',
      '--unshare-user',
      '--die-with-parent',
      '--ro-bind',
      '/',
      '/',
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      '--',
      'true',
    ],
    { timeout: 10_000, encoding: 'utf8' },
  );
  if (probe.status === 0) return { ok: true };
  const said = firstLine(probe.stderr ?? '') || (probe.error ? probe.error.message : `exit status ${probe.status}`);
  return { ok: false, why: `bubblewrap cannot create its namespaces here: ${said}` };
}

export function probeProot(path: string): { ok: true } | { ok: false; why: string } {
  if (!existsSync(path)) return { ok: false, why: `PRoot is not installed (${path}; Debian package proot)` };
  const probe = spawnSync(path, ['-r', '/', 'true'], { timeout: 10_000, encoding: 'utf8' });
  if (probe.status === 0) return { ok: true };
  return {
    ok: false,
    why: `PRoot cannot trace processes here: ${firstLine(probe.stderr ?? '') || `exit status ${probe.status}`}`,
  };
}

export function detectRunner(paths: RunnerPaths = DEFAULT_RUNNER_PATHS): Runner {
  const bwrap = probeBubblewrap(paths.bwrap);
  if (bwrap.ok)
    return {
      kind: 'bubblewrap',
      path: paths.bwrap,
      why: 'bubblewrap can create user, mount, PID, network, IPC and UTS namespaces here',
    };
  const proot = probeProot(paths.proot);
  if (proot.ok) return { kind: 'proot', path: paths.proot, why: `${bwrap.why}; PRoot is used instead` };
  return { kind: 'none', why: `${bwrap.why}; ${proot.why}` };
}
