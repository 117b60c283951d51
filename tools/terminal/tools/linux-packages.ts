/**
 * terminal.linux_packages: the sandbox system's packages. list and search read dpkg's and apt's
 * files from the tree (nothing runs in the sandbox); install and remove run apt-get inside it, with
 * the network for install, after the person approves.
 */
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import type { TerminalContext } from '../context';
import { terminalMetadata } from '../declare';
import { ROOTFS_NAME } from '../sandbox/rootfs-store';
import { installedPackages, searchPackages } from '../sandbox/package-index';

const PACKAGE = /^[a-z0-9][a-z0-9+.-]{0,99}$/;
const APT = ['apt-get', '-o', 'APT::Sandbox::User=root', '-o', 'Dpkg::Use-Pty=0', '-q', '-y'];

export function linuxPackagesTool(ctx: TerminalContext): Tool {
  const tool: Tool = defineTool({
    id: 'terminal.linux_packages',
    title: 'Manage the sandbox’s packages',
    description:
      "Lists, searches, installs or removes the sandbox system's packages with apt; install and remove ask the person.",
    input: z.object({
      action: z.enum(['list', 'search', 'install', 'remove']),
      names: z.array(z.string().min(1).max(100)).max(32).default([]).describe('Package names, or words to search for.'),
      rootfs: z.string().regex(ROOTFS_NAME).optional(),
      limit: z.number().int().min(1).max(500).default(100),
    }),
    metadata: terminalMetadata('HIGH', 'sandbox', 'packages'),
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: true,
    },
    selfGated: true,
    runPolicy: 'selfBounded',
    async run(args, call) {
      const tree = ctx.sandbox.resolveRootfs(args.rootfs);
      if (args.action === 'list') {
        const all = installedPackages(tree.dir);
        const wanted = args.names.length ? all.filter((p) => args.names.some((n) => p.name.includes(n))) : all;
        const shown = wanted.slice(0, args.limit);
        return success(shown.map((p) => `${p.name} ${p.version}`).join('\n') || '(none)', {
          rootfs: tree.name,
          installed: all.length,
          packages: shown,
          truncated: wanted.length > shown.length,
        });
      }
      if (args.action === 'search') {
        if (args.names.length === 0)
          throw new ToolCallError('INVALID_ARGUMENT', 'Give the words to search for in `names`.', {
            data: { fields: ['names'] },
          });
        const found = searchPackages(tree.dir, args.names.join(' '), args.limit);
        if (found.lists === 0)
          throw new ToolCallError('EXECUTION_FAILED', `The system '${tree.name}' has no package lists yet.`, {
            hint:
              'Lists are fetched by terminal.linux_bootstrap from a mirror and by the first install; install a ' +
              'package you know by name, then search.',
          });
        return success(
          found.results.map((p) => `${p.name} ${p.version} — ${p.summary}`).join('\n') || '(nothing found)',
          {
            rootfs: tree.name,
            results: found.results,
            truncated: found.truncated,
          },
        );
      }
      if (args.names.length === 0)
        throw new ToolCallError('INVALID_ARGUMENT', `Name the packages to ${args.action} in \`names\`.`, {
          data: { fields: ['names'] },
        });
      const bad = args.names.filter((n) => !PACKAGE.test(n));
      if (bad.length)
        throw new ToolCallError('INVALID_ARGUMENT', `Not Debian package names: ${bad.join(', ')}.`, {
          hint: 'Package names are lower case letters, digits and + - . (find them with action "search").',
          data: { fields: ['names'] },
        });
      await ctx.approvals.ask({
        tool,
        ctx: call,
        title:
          `${args.action === 'install' ? 'Install' : 'Remove'} in the sandbox (${tree.name}): ` +
          `${args.names.join(' ')}`,
        args: {
          action: args.action,
          names: args.names,
          rootfs: tree.name,
          runs: `apt-get ${args.action} inside the sandbox${args.action === 'install' ? ', with network access' : ''}`,
        },
        grant: { action: `packages:${args.action}:${tree.name}:${args.names.join(' ')}` },
        what: `${args.action === 'install' ? 'installing' : 'removing'} packages in the sandbox`,
      });
      const network = args.action === 'install';
      let step = 0;
      const onOutput = (text: string) => call.progress({ progress: ++step, message: text.slice(-400) });
      if (network) {
        const update = await ctx.sandbox.runOnce(tree.dir, [...APT, 'update'], {
          network,
          privileged: true,
          timeoutMs: 300_000,
          signal: call.signal,
          onOutput,
        });
        if (update.exitCode !== 0)
          throw new ToolCallError(
            'EXECUTION_FAILED',
            `apt-get update failed (exit status ` +
              `${update.exitCode}):\n${update.output.trim().split('\n').slice(-6).join('\n')}`,
            {
              hint:
                'The mirror may be unreachable from this machine; check the system’s /etc/apt/sources.list ' +
                'inside the sandbox.',
            },
          );
      }
      const verb = args.action === 'install' ? ['install', '--no-install-recommends'] : ['remove'];
      const r = await ctx.sandbox.runOnce(tree.dir, [...APT, ...verb, ...args.names], {
        network,
        privileged: true,
        timeoutMs: 600_000,
        signal: call.signal,
        onOutput,
      });
      const tail = r.output.trim().split('\n').slice(-12).join('\n');
      if (r.exitCode !== 0)
        throw new ToolCallError(
          'EXECUTION_FAILED',
          `apt-get ${args.action} failed (exit status ${r.exitCode ?? (r.timedOut ? 'timeout' : '?')}):\n${tail}`,
          {
            hint: 'Read apt’s last lines: a name that does not exist, or a dependency problem.',
            data: { exitCode: r.exitCode },
          },
        );
      return success(
        `${args.action === 'install' ? 'Installed' : 'Removed'} ${args.names.join(', ')} in '${tree.name}'.\n${tail}`,
        {
          rootfs: tree.name,
          action: args.action,
          names: args.names,
          exitCode: r.exitCode,
        },
      );
    },
  });
  return tool;
}
