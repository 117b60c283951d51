/**
 * Unpacks a root file system tarball (gzip, xz, zstd or plain; what distributions publish as
 * "minirootfs" or "rootfs.tar") into a new tree with GNU tar. tar refuses members that climb out with
 * `..` or start at `/`, and creates links that point out of the tree only after every file is
 * written, so no member can be written through one; device nodes are left out (the sandbox brings
 * its own /dev).
 */
import { spawn } from 'node:child_process';
import { ToolCallError } from '../../core/result';

export function extractTarball(tarball: string, target: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'tar',
      [
        '-x',
        '-f',
        tarball,
        '-C',
        target,
        '--numeric-owner',
        '--delay-directory-restore',
        '--exclude=./dev/*',
        '--exclude=dev/*',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' } },
    );
    let errors = '';
    child.stderr.on('data', (d: Buffer) => {
      if (errors.length < 8192) errors += d.toString('utf8');
    });
    const abort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', abort, { once: true });
    child.once('error', (e) => reject(new ToolCallError('EXECUTION_FAILED', `tar could not start: ${e.message}`)));
    child.once('close', (code) => {
      signal?.removeEventListener('abort', abort);
      if (signal?.aborted)
        return reject(new ToolCallError('EXECUTION_FAILED', 'The extraction was cancelled; run it again.'));
      if (code === 0) return resolve();
      reject(
        new ToolCallError(
          'EXECUTION_FAILED',
          `The tarball could not be unpacked (tar exit status ${code}): ` +
            `${errors.trim().split('\n').slice(-4).join(' ')}`,
          {
            hint: 'Give a tar archive of a root file system (tar, tar.gz, tar.xz or tar.zst).',
          },
        ),
      );
    });
  });
}
