/**
 * What terminal.backends reports: each backend, whether it can open a terminal now and why not,
 * and what it isolates.
 */
import type { TerminalContext } from '../context';

export interface BackendStatus {
  backend: string;
  available: boolean;
  /** Why it is or is not available, in words. */
  why: string;
  /** What a program in this terminal can and cannot reach. */
  isolation: string;
  default?: boolean;
  runner?: 'bubblewrap' | 'proot' | 'none';
  rootfs?: string[];
  defaultRootfs?: string;
  network?: 'off' | 'on' | 'not isolated';
}

export function backendStatuses(ctx: TerminalContext): BackendStatus[] {
  const runner = ctx.sandbox.runner();
  const trees = ctx.sandbox.store.list();
  const ready = trees.filter((t) => t.complete).map((t) => t.name);
  const defaultRootfs = ctx.sandbox.store.defaultName();
  const sandbox: BackendStatus = {
    backend: 'sandbox',
    default: true,
    available: runner.kind !== 'none' && ready.length > 0,
    why:
      runner.kind === 'none'
        ? runner.why
        : ready.length === 0
          ? `${runner.why}; no root file system yet: create one with terminal.linux_bootstrap`
          : runner.why,
    isolation:
      runner.kind === 'proot'
        ? 'PRoot: only the root file system and the workspace (at /workspace) are visible by path; processes and ' +
          'the network are NOT isolated, and PRoot is not a security boundary against a hostile program'
        : 'bubblewrap: its own root file system, the workspace at /workspace and nothing else of this machine (no ' +
          'data dir, no home); own PID, IPC, UTS and user namespaces; no capabilities; network off unless ' +
          'terminal.linux_network turned it on',
    runner: runner.kind,
    rootfs: ready,
    ...(defaultRootfs ? { defaultRootfs } : {}),
    network: runner.kind === 'proot' ? 'not isolated' : ctx.sandbox.network ? 'on' : 'off',
  };
  const hostOn = ctx.settings.hostEnabled();
  const host: BackendStatus = {
    backend: 'host',
    available: hostOn,
    why: hostOn
      ? 'the person turned on terminalHostEnabled'
      : 'off: the person has not turned on the setting terminalHostEnabled (Settings)',
    isolation:
      'none: a shell on this machine as the person’s user; every key sent asks the person, commands pass ' +
      'shell_execute’s gate (on the host only option-only read commands run without asking)',
  };
  const devices: BackendStatus[] = (ctx.devices?.devices() ?? []).map((d) => ({
    backend: `device:${d.serial}`,
    available: d.state === 'device',
    why: d.state === 'device' ? `adb lists it online${d.model ? ` (${d.model})` : ''}` : `adb lists it as ${d.state}`,
    isolation:
      'the phone’s shell user, over adb with a PTY; every key sent asks the person, commands pass shell_execute’s gate',
  }));
  return [sandbox, host, ...devices];
}
