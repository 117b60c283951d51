/**
 * The command lines that start a program inside the sandbox.
 *
 * bubblewrap: new user, mount, PID, network, IPC, UTS and cgroup namespaces (`--unshare-all`; the
 * network only shared when it is on); the root file system as `/`, the terminal's folder as
 * `/workspace` and nothing else of the host (fresh /proc for the sandbox's own PID namespace, a
 * minimal /dev, empty /tmp and /run); no capabilities, no nested user namespaces, an environment
 * of our own (`--clearenv`), the TIOCSTI filter (seccomp-filter.ts), and `--die-with-parent`, so the
 * whole PID namespace dies with the host. Package installs alone run with capabilities (inside the
 * user namespace: they can chown the tree's files, nothing of the host).
 *
 * PRoot: the same tree and folder through path translation; it cannot isolate processes or the
 * network, and is not a security boundary against a hostile program (it is what runs where
 * bubblewrap cannot); /proc is not given, so /proc/1/root cannot lead to the host's files. Debian's
 * PRoot has no --kill-on-exit: its processes are ended by session and marker like the host's.
 */
import { SANDBOX_OUTPUT_DIR } from '../backends/output-dir';
import type { Runner } from './sandbox-runner';

export interface SandboxLaunch {
  /** The tree mounted as `/`. */
  rootfs: string;
  /** Host folder mounted at /workspace, or none (package installs). */
  workspace?: string;
  network: boolean;
  /** Capabilities inside the user namespace (package installs only). */
  privileged: boolean;
  /** Program and arguments, as the sandbox sees them. */
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** File descriptor the seccomp program is read from (bubblewrap only). */
  seccompFd?: number;
  /** Host folder shown read-only at SANDBOX_OUTPUT_DIR: the terminal's pipe-mode FIFOs (backends/output-dir.ts). */
  outputDir?: string;
  /** Host files to show read-only at the same path (resolv.conf when the network is on). */
  readOnlyFiles?: string[];
}

export const SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export function bubblewrapArgs(l: SandboxLaunch): string[] {
  const args = ['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent'];
  if (l.network) args.push('--share-net');
  args.push('--uid', '0', '--gid', '0', '--hostname', 'sandbox');
  args.push('--bind', l.rootfs, '/');
  if (l.workspace) args.push('--bind', l.workspace, '/workspace');
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--tmpfs', '/run');
  // Read-only: the shell writes into the FIFOs there (a FIFO is no file of the mount) and can add,
  // remove or swap nothing.
  if (l.outputDir) args.push('--ro-bind', l.outputDir, SANDBOX_OUTPUT_DIR);
  for (const f of l.readOnlyFiles ?? []) args.push('--ro-bind-try', f, f);
  args.push('--cap-drop', 'ALL');
  if (l.privileged) for (const cap of PACKAGE_CAPS) args.push('--cap-add', cap);
  args.push('--clearenv');
  for (const [k, v] of Object.entries(l.env)) args.push('--setenv', k, v);
  args.push('--chdir', l.cwd);
  if (l.seccompFd !== undefined) args.push('--seccomp', String(l.seccompFd));
  args.push('--', ...l.argv);
  return args;
}

/** What dpkg and apt need inside the user namespace: own and chmod the tree's files, switch ids, kill their helpers. */
const PACKAGE_CAPS = [
  'CAP_CHOWN',
  'CAP_DAC_OVERRIDE',
  'CAP_DAC_READ_SEARCH',
  'CAP_FOWNER',
  'CAP_FSETID',
  'CAP_SETUID',
  'CAP_SETGID',
  'CAP_KILL',
  'CAP_SETFCAP',
  'CAP_SYS_CHROOT',
];

export function prootArgs(l: SandboxLaunch): string[] {
  const args = ['-0', '-r', l.rootfs];
  if (l.workspace) args.push('-b', `${l.workspace}:/workspace`);
  if (l.outputDir) args.push('-b', `${l.outputDir}:${SANDBOX_OUTPUT_DIR}`);
  for (const dev of ['/dev/null', '/dev/zero', '/dev/random', '/dev/urandom', '/dev/tty']) args.push('-b', dev);
  for (const f of l.readOnlyFiles ?? []) args.push('-b', f);
  args.push('-w', l.cwd, ...l.argv);
  return args;
}

/**
 * The host-side program and arguments. bubblewrap reads its arguments and the seccomp program from
 * descriptors (`--args 4`, `--seccomp 3`), and node-pty passes none beyond the terminal's, so `sh`
 * opens both files and execs bubblewrap. Reading the arguments from a file also keeps them out of
 * the command line of the sandbox's PID 1, which would otherwise show host paths (the data dir's)
 * to anything inside through /proc/1/cmdline.
 */
export function launchCommand(
  runner: Runner,
  l: SandboxLaunch,
  files: { seccomp?: string; args: string },
): { file: string; args: string[]; argsFile?: Buffer } {
  if (runner.kind === 'bubblewrap') {
    const bw = bubblewrapArgs({ ...l, ...(files.seccomp ? { seccompFd: 3 } : {}) });
    // The options go in the file; the command (a path inside the sandbox) must stay on the line.
    const split = bw.indexOf('--');
    const seccomp = files.seccomp ? ' 3<"$TOOLGATE_SECCOMP"' : '';
    return {
      file: '/bin/sh',
      args: ['-c', `exec "$0" --args 4 "$@" 4<"$TOOLGATE_BWRAP_ARGS"${seccomp}`, runner.path, ...bw.slice(split)],
      argsFile: Buffer.from(`${bw.slice(0, split).join('\0')}\0`, 'utf8'),
    };
  }
  if (runner.kind === 'proot') return { file: runner.path, args: prootArgs(l) };
  throw new Error(runner.why);
}
