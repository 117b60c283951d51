/**
 * Runs the real debootstrap (Debian's own tool) to build a root file system from a mirror, with its
 * progress ("I: Retrieving …", "I: Extracting …", "I: Configuring …") reported line by line.
 * Downloaded packages are kept in a cache folder, so a bootstrap that was interrupted and is run
 * again downloads only what it did not have. debootstrap needs root on this machine; without it the
 * error says to give a rootfs tarball instead.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { ToolCallError } from '../../core/result';

export interface DebootstrapRun {
  debootstrap: string;
  suite: string;
  mirror: string;
  variant: 'minbase' | 'buildd' | 'standard';
  target: string;
  cacheDir: string;
  /** The archive keyring; debootstrap's default for the distribution when undefined. */
  keyring?: string;
  signal?: AbortSignal;
  onLine?: (line: string) => void;
}

export interface DebootstrapResult {
  /** Packages debootstrap found in the cache instead of downloading. */
  reused: number;
  retrieved: number;
  lines: string[];
}

export function debootstrapUnavailable(path: string): string | undefined {
  if (!existsSync(path)) return `debootstrap is not installed (${path}; Debian package debootstrap)`;
  if (typeof process.getuid === 'function' && process.getuid() !== 0)
    return 'debootstrap needs root, and Toolgate does not run as root here';
  return undefined;
}

export function runDebootstrap(run: DebootstrapRun): Promise<DebootstrapResult> {
  const missing = debootstrapUnavailable(run.debootstrap);
  if (missing)
    return Promise.reject(
      new ToolCallError('UNSUPPORTED', `Cannot bootstrap here: ${missing}.`, {
        hint: 'Give a root file system tarball from the workspace instead (terminal.linux_bootstrap with `from`).',
      }),
    );
  mkdirSync(run.cacheDir, { recursive: true, mode: 0o700 });
  const args = [
    ...(run.variant === 'standard' ? [] : [`--variant=${run.variant}`]),
    `--cache-dir=${run.cacheDir}`,
    ...(run.keyring ? [`--keyring=${run.keyring}`] : []),
    run.suite,
    run.target,
    run.mirror,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(run.debootstrap, args, {
      env: {
        PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        LANG: 'C.UTF-8',
        DEBIAN_FRONTEND: 'noninteractive',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const lines: string[] = [];
    let retrieved = 0;
    let reused = 0;
    let pending = '';
    const take = (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      for (const line of parts.map((l) => l.trim()).filter(Boolean)) {
        if (line.startsWith('I: Retrieving') && !/Release|Packages|InRelease/.test(line)) retrieved++;
        if (line.startsWith('I: Found') || /already (in|present)/i.test(line)) reused++;
        lines.push(line);
        if (lines.length > 400) lines.shift();
        run.onLine?.(line);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const abort = () => {
      // debootstrap runs wget, dpkg and chroot'ed scripts: end its whole process group.
      if (child.pid) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already ended
        }
      }
    };
    run.signal?.addEventListener('abort', abort, { once: true });
    child.once('error', (e) => {
      run.signal?.removeEventListener('abort', abort);
      reject(new ToolCallError('EXECUTION_FAILED', `debootstrap could not start: ${e.message}`));
    });
    child.once('close', (code) => {
      run.signal?.removeEventListener('abort', abort);
      if (run.signal?.aborted)
        return reject(new ToolCallError('EXECUTION_FAILED', 'The bootstrap was cancelled; run it again to resume.'));
      if (code === 0) return resolve({ reused, retrieved, lines });
      const tail = lines.slice(-8).join('\n');
      reject(
        new ToolCallError('EXECUTION_FAILED', `debootstrap failed (exit status ${code}):\n${tail}`, {
          hint:
            'Read the last lines: a mirror that does not carry this suite, or no network to it. Fix the suite ' +
            'or mirror and run it again (packages already downloaded are reused).',
          data: { exitCode: code },
        }),
      );
    });
  });
}
