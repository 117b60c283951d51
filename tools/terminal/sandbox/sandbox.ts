/**
 * The sandbox a host owns: its root file systems, the runner that confines them (bubblewrap or
 * PRoot), the network switch (off at every start; only terminal.linux_network turns it on, with a
 * person's approval, for terminals opened afterwards), and the two ways to run inside: a terminal on
 * a PTY, or one program with its output collected (apt).
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolCallError } from '../../core/result';
import { SANDBOX_OUTPUT_DIR, makeOutputDir } from '../backends/output-dir';
import { spawnPtyProcess } from '../backends/pty-process';
import type { SpawnRequest, TerminalProcess } from '../backends/types';
import { endProcesses } from '../process-scan';
import { RootfsStore, existsInTree } from './rootfs-store';
import { SANDBOX_PATH, type SandboxLaunch, launchCommand } from './sandbox-command';
import { DEFAULT_RUNNER_PATHS, type Runner, type RunnerPaths, detectRunner } from './sandbox-runner';
import { type FilterScope, sandboxFilter, seccompSupported } from './seccomp-filter';

export interface SandboxOptions {
  dataDir: string;
  runnerPaths?: Partial<RunnerPaths>;
}

export interface OneShot {
  exitCode: number | null;
  output: string;
  timedOut: boolean;
}

const RESOLV_CONF = '/etc/resolv.conf';

export class Sandbox {
  readonly store: RootfsStore;
  private detected: Runner | undefined;
  private networkOn = false;
  private readonly paths: RunnerPaths;
  private readonly dataDir: string;

  constructor(opts: SandboxOptions) {
    this.dataDir = opts.dataDir;
    this.store = new RootfsStore(opts.dataDir);
    this.paths = { ...DEFAULT_RUNNER_PATHS, ...opts.runnerPaths };
  }

  runner(): Runner {
    this.detected ??= detectRunner(this.paths);
    return this.detected;
  }

  get network(): boolean {
    return this.networkOn;
  }

  /** Whether this runner can keep the network off; PRoot cannot. */
  canIsolateNetwork(): boolean {
    return this.runner().kind === 'bubblewrap';
  }

  setNetwork(on: boolean): void {
    this.networkOn = on;
  }

  /** The tree a terminal uses: the one named, or the newest finished one. */
  resolveRootfs(name: string | undefined): { name: string; dir: string } {
    const chosen = name ?? this.store.defaultName();
    if (!chosen)
      throw new ToolCallError('NOT_FOUND', 'There is no Linux root file system for the sandbox yet.', {
        hint:
          'Create one with terminal.linux_bootstrap (Debian from the mirror this machine uses, or a rootfs ' +
          'tarball from the workspace), then retry.',
      });
    const entry = this.store.get(chosen);
    if (!entry)
      throw new ToolCallError('NOT_FOUND', `There is no root file system named '${chosen}'.`, {
        hint: `Known: ${
          this.store
            .list()
            .map((e) => e.name)
            .join(', ') || 'none'
        }. terminal.linux_status lists them.`,
        data: { fields: ['rootfs'] },
      });
    if (!entry.complete)
      throw new ToolCallError(
        'EXECUTION_FAILED',
        `The root file system '${chosen}' is half-made (its bootstrap did not finish).`,
        {
          hint: 'Run terminal.linux_bootstrap again for it (downloads already made are reused), then retry.',
        },
      );
    return { name: chosen, dir: entry.dir };
  }

  /** The shell inside a tree: bash when it has one, else sh. */
  shellOf(dir: string): string {
    return existsInTree(dir, '/bin/bash') ? '/bin/bash' : '/bin/sh';
  }

  private usableRunner(): Exclude<Runner, { kind: 'none' }> {
    const runner = this.runner();
    if (runner.kind === 'none')
      throw new ToolCallError('UNSUPPORTED', `The sandbox cannot run on this machine: ${runner.why}.`, {
        hint:
          'Install bubblewrap (or proot) and allow user namespaces, or use another backend ' +
          '(terminal.backends lists them).',
      });
    return runner;
  }

  private seccompFile(scope: FilterScope): string | undefined {
    if (!seccompSupported()) return undefined;
    const dir = join(this.dataDir, 'terminal');
    const file = join(dir, `seccomp-${scope}.bpf`);
    const program = sandboxFilter(scope);
    // Written again when it differs: a data dir kept from an older version holds an older program.
    if (!existsSync(file) || !readFileSync(file).equals(program)) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(file, program, { mode: 0o600 });
      chmodSync(file, 0o600);
    }
    return file;
  }

  private launch(rootfs: string, l: Omit<SandboxLaunch, 'rootfs' | 'readOnlyFiles'>): SandboxLaunch {
    return { rootfs, ...l, ...(l.network && existsSync(RESOLV_CONF) ? { readOnlyFiles: [RESOLV_CONF] } : {}) };
  }

  private environment(marker: string, extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: SANDBOX_PATH,
      HOME: '/root',
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      TOOLGATE_TERMINAL: marker,
      ...extra,
    };
  }

  /** A terminal's shell in the sandbox, on a PTY. */
  spawnTerminal(
    req: SpawnRequest,
    rootfsName: string | undefined,
  ): { process: TerminalProcess; rootfs: string; network: boolean } {
    const runner = this.usableRunner();
    const tree = this.resolveRootfs(rootfsName);
    const network = this.networkOn && this.canIsolateNetwork();
    const env = this.environment(req.marker);
    const outputDir = makeOutputDir();
    const launch = this.launch(tree.dir, {
      workspace: req.workspace,
      outputDir,
      network: runner.kind === 'proot' ? true : network,
      privileged: false,
      argv: [this.shellOf(tree.dir)],
      env,
      cwd: '/workspace',
    });
    const seccomp = runner.kind === 'bubblewrap' ? this.seccompFile('terminal') : undefined;
    const argsPath = this.argsPath(req.marker);
    const { file, args, argsFile } = launchCommand(runner, launch, { ...(seccomp ? { seccomp } : {}), args: argsPath });
    if (argsFile) writeFileSync(argsPath, argsFile, { mode: 0o600 });
    const process = spawnPtyProcess({
      file,
      args,
      env: {
        ...env,
        PATH: '/usr/sbin:/usr/bin:/sbin:/bin',
        TOOLGATE_BWRAP_ARGS: argsPath,
        ...(seccomp ? { TOOLGATE_SECCOMP: seccomp } : {}),
      },
      cwd: tree.dir,
      cols: req.cols,
      rows: req.rows,
      marker: req.marker,
      describe: `${runner.kind === 'bubblewrap' ? 'bubblewrap' : 'PRoot'} sandbox, root file system ${tree.name}`,
      outputDir: { host: outputDir, shell: SANDBOX_OUTPUT_DIR },
    });
    process.onExit(() => rmSync(argsPath, { force: true }));
    return { process, rootfs: tree.name, network: runner.kind === 'proot' || network };
  }

  /** bubblewrap's arguments for one launch, kept beside the seccomp program until the launch ends. */
  private argsPath(marker: string): string {
    const dir = join(this.dataDir, 'terminal', 'launch');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return join(dir, `${marker}.args`);
  }

  /**
   * Runs one program in a tree (no workspace mounted) and collects its output, bounded; package
   * management uses it. Output beyond `maxBytes` keeps its end.
   */
  async runOnce(
    rootfsDir: string,
    argv: string[],
    opts: {
      network: boolean;
      privileged: boolean;
      timeoutMs: number;
      env?: Record<string, string>;
      signal?: AbortSignal;
      onOutput?: (text: string) => void;
      maxBytes?: number;
    },
  ): Promise<OneShot> {
    const runner = this.usableRunner();
    const marker = `oneshot-${Math.random().toString(36).slice(2)}`;
    const env = this.environment(marker, { DEBIAN_FRONTEND: 'noninteractive', ...opts.env });
    const launch = this.launch(rootfsDir, { network: opts.network, privileged: opts.privileged, argv, env, cwd: '/' });
    const seccomp =
      runner.kind === 'bubblewrap' ? this.seccompFile(opts.privileged ? 'packages' : 'terminal') : undefined;
    const argsPath = this.argsPath(marker);
    const { file, args, argsFile } = launchCommand(runner, launch, { ...(seccomp ? { seccomp } : {}), args: argsPath });
    if (argsFile) writeFileSync(argsPath, argsFile, { mode: 0o600 });
    const child = spawn(file, args, {
      env: {
        ...env,
        PATH: '/usr/sbin:/usr/bin:/sbin:/bin',
        TOOLGATE_BWRAP_ARGS: argsPath,
        ...(seccomp ? { TOOLGATE_SECCOMP: seccomp } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const max = opts.maxBytes ?? 256 * 1024;
    let output = '';
    const take = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      opts.onOutput?.(text);
      output += text;
      if (output.length > max * 2) output = output.slice(output.length - max);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    let timedOut = false;
    const stop = () => {
      if (child.pid !== undefined) void endProcesses(child.pid, marker, 100);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, opts.timeoutMs);
    opts.signal?.addEventListener('abort', stop, { once: true });
    const exitCode = await new Promise<number | null>((resolve) => {
      child.once('error', () => resolve(null));
      child.once('close', (code) => resolve(code));
    });
    clearTimeout(timer);
    rmSync(argsPath, { force: true });
    opts.signal?.removeEventListener('abort', stop);
    return { exitCode, output: output.length > max ? output.slice(output.length - max) : output, timedOut };
  }
}
