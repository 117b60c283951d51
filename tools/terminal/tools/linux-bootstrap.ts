/**
 * terminal.linux_bootstrap: makes the sandbox's root file system, with the real debootstrap from the
 * mirror this machine's apt uses (or one given), or from a rootfs tarball in the workspace. A
 * finished one answers at once; a half-made one is made again, reusing what was downloaded. Making
 * one installs a whole system, so the person approves it first.
 */
import { basename } from 'node:path';
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import type { TerminalContext } from '../context';
import { terminalMetadata } from '../declare';
import { readAptSource } from '../sandbox/apt-sources';
import { bootstrapRootfs } from '../sandbox/bootstrap';
import { ROOTFS_NAME, type RootfsSource } from '../sandbox/rootfs-store';
import { insideWorkspaces } from '../workspaces';

const SUITE = /^[a-z][a-z0-9.-]{1,30}$/;

function nameFromTarball(path: string): string {
  const base = basename(path)
    .toLowerCase()
    .replace(/\.(tar(\.(gz|xz|zst|bz2))?|tgz|txz)$/, '')
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 40);
  return base || 'rootfs';
}

export function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.round(n / 1024)} KB`;
}

export function linuxBootstrapTool(ctx: TerminalContext): Tool {
  const tool: Tool = defineTool({
    id: 'terminal.linux_bootstrap',
    title: 'Create the sandbox’s Linux system',
    description:
      'Creates a root file system for sandbox terminals: Debian by debootstrap, or a rootfs tarball of the ' +
      'workspace (from). The person approves first.',
    input: z.object({
      suite: z.string().regex(SUITE, 'a Debian release name such as bookworm').optional().describe('e.g. bookworm.'),
      mirror: z
        .string()
        .url()
        .regex(/^https?:\/\//, 'an http(s) URL')
        .optional(),
      variant: z.enum(['minbase', 'buildd', 'standard']).default('minbase'),
      from: z.string().min(1).max(4096).optional().describe('A .tar, .tar.gz, .tar.xz or .tar.zst in the workspace.'),
      name: z.string().regex(ROOTFS_NAME, 'lower case letters, digits, . _ -').optional(),
      force: z.boolean().default(false),
    }),
    metadata: terminalMetadata('HIGH', 'sandbox'),
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: true,
    },
    selfGated: true,
    runPolicy: 'selfBounded',
    async run(args, call) {
      let source: RootfsSource;
      let name: string;
      if (args.from !== undefined) {
        if (args.suite || args.mirror)
          throw new ToolCallError(
            'INVALID_ARGUMENT',
            'Give either `from` (a tarball) or `suite`/`mirror` (debootstrap), not both.',
            {
              data: { fields: ['from', 'suite', 'mirror'] },
            },
          );
        const path = insideWorkspaces(ctx.roots, args.from);
        if (!path)
          throw new ToolCallError(
            'PERMISSION_DENIED',
            'The tarball must be a file inside the workspace (terminal.workspaces lists the folders).',
            {
              hint: 'Put the rootfs tarball in the workspace (for example with download_file) and give its path.',
              data: { fields: ['from'] },
            },
          );
        source = { kind: 'tarball', path };
        name = args.name ?? nameFromTarball(path);
      } else {
        const apt = readAptSource();
        const suite = args.suite ?? apt?.suite ?? 'stable';
        const mirror = args.mirror ?? apt?.mirror ?? 'http://deb.debian.org/debian';
        source = { kind: 'debootstrap', distro: 'debian', suite, mirror, variant: args.variant };
        name = args.name ?? `debian-${suite}`;
      }
      const existing = ctx.sandbox.store.get(name);
      if (existing?.complete && !args.force) {
        return success(
          `The root file system '${name}' is already there (${formatBytes(existing.record?.sizeBytes ?? 0)}).`,
          {
            name,
            already: true,
            sizeBytes: existing.record?.sizeBytes ?? 0,
            source: existing.record?.source,
          },
        );
      }
      await ctx.approvals.ask({
        tool,
        ctx: call,
        title:
          source.kind === 'tarball'
            ? `Create the sandbox system '${name}' from ${basename(source.path)}`
            : `Create the sandbox system '${name}': debootstrap ${source.suite} (${args.variant}) from ` +
              `${source.mirror}`,
        args: { name, source, halfMade: existing !== undefined && !existing.complete },
        grant: { action: `bootstrap:${name}` },
        what: `creating the sandbox’s Linux system '${name}'`,
      });
      let steps = 0;
      const report = await bootstrapRootfs(
        { sandbox: ctx.sandbox, debootstrap: ctx.debootstrap, cacheDir: ctx.debootstrapCache },
        { name, source },
        { signal: call.signal, onStep: (message) => call.progress({ progress: ++steps, message }) },
      );
      const size = report.record.sizeBytes ?? 0;
      const lists = report.packageLists ? 'package lists fetched' : 'package lists NOT fetched: search needs them';
      const fetched = ` (${report.retrieved} packages downloaded, ${lists})`;
      return success(
        `Created '${name}': ${formatBytes(size)} in ${report.files} files, in ` +
          `${Math.round(report.durationMs / 1000)} ` +
          `s${source.kind === 'debootstrap' ? fetched : ''}. ` +
          `Open a terminal on it with terminal.create {backend: "sandbox"}.`,
        {
          name,
          already: false,
          sizeBytes: size,
          files: report.files,
          durationMs: report.durationMs,
          retrieved: report.retrieved,
          packageLists: report.packageLists,
          source,
        },
      );
    },
  });
  return tool;
}
