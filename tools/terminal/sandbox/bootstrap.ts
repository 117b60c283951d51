/**
 * Makes a root file system: a new tree in the store, filled by debootstrap or from a tarball, apt's
 * package lists fetched once (so searching works offline afterwards), its size measured, and the
 * record marked finished last, so an interruption at any step leaves a tree that reads half-made.
 */
import { dirSize } from './dir-size';
import { runDebootstrap } from './debootstrap';
import { extractTarball } from './rootfs-tarball';
import type { RootfsRecord, RootfsSource } from './rootfs-store';
import type { Sandbox } from './sandbox';

export interface BootstrapPlan {
  name: string;
  source: RootfsSource;
  keyring?: string;
}

export interface BootstrapEnv {
  sandbox: Sandbox;
  debootstrap: string;
  cacheDir: string;
}

export interface BootstrapReport {
  record: RootfsRecord;
  files: number;
  retrieved: number;
  reused: number;
  /** Whether apt's lists could be fetched (search needs them). */
  packageLists: boolean;
  durationMs: number;
}

export async function bootstrapRootfs(
  env: BootstrapEnv,
  plan: BootstrapPlan,
  opts: { signal?: AbortSignal; onStep?: (message: string) => void },
): Promise<BootstrapReport> {
  const started = Date.now();
  const store = env.sandbox.store;
  const dir = store.begin(plan.name, plan.source);
  let retrieved = 0;
  let reused = 0;
  let packageLists = false;
  if (plan.source.kind === 'tarball') {
    opts.onStep?.(`unpacking ${plan.source.path}`);
    await extractTarball(plan.source.path, dir, opts.signal);
  } else {
    const result = await runDebootstrap({
      debootstrap: env.debootstrap,
      suite: plan.source.suite,
      mirror: plan.source.mirror,
      variant: plan.source.variant as 'minbase' | 'buildd' | 'standard',
      target: dir,
      cacheDir: env.cacheDir,
      ...(plan.keyring ? { keyring: plan.keyring } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      onLine: (line) => opts.onStep?.(line),
    });
    retrieved = result.retrieved;
    reused = result.reused;
    opts.onStep?.('fetching the package lists (apt-get update)');
    const update = await env.sandbox.runOnce(dir, ['apt-get', '-o', 'APT::Sandbox::User=root', '-q', 'update'], {
      network: true,
      privileged: true,
      timeoutMs: 300_000,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    packageLists = update.exitCode === 0;
  }
  opts.onStep?.('measuring the tree');
  const size = await dirSize(dir, opts.signal);
  const record = store.finish(plan.name, size.bytes);
  return { record, files: size.files, retrieved, reused, packageLists, durationMs: Date.now() - started };
}
