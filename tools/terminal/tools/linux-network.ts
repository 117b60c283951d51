/**
 * terminal.linux_network: the sandbox's network. Off at every start: a sandbox terminal cannot
 * reach any address, not even this machine's loopback. Turning it on asks the person and applies to
 * sandbox terminals opened afterwards; turning it off applies likewise and needs no one.
 */
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import type { TerminalContext } from '../context';
import { terminalMetadata } from '../declare';
import { ownerOf } from '../owner';

export function linuxNetworkTool(ctx: TerminalContext): Tool {
  const tool: Tool = defineTool({
    id: 'terminal.linux_network',
    title: 'Switch the sandbox’s network',
    description:
      "Gives sandbox terminals opened from now on this machine's network (on: the person approves) or none (off), " +
      'or says which have it.',
    input: z.object({
      action: z.enum(['status', 'on', 'off']).default('status'),
    }),
    metadata: terminalMetadata('HIGH', 'sandbox', 'network'),
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: true,
    },
    selfGated: true,
    runPolicy: 'mutating',
    async run(args, call) {
      const runner = ctx.sandbox.runner();
      if (args.action !== 'status' && runner.kind === 'proot')
        throw new ToolCallError(
          'UNSUPPORTED',
          'Under PRoot the sandbox cannot be cut off from the network: PRoot translates paths, ' +
            'it has no network namespace.',
          {
            hint: 'Install bubblewrap and allow user namespaces for an isolated network.',
          },
        );
      if (args.action === 'on' && !ctx.sandbox.network)
        await ctx.approvals.ask({
          tool,
          ctx: call,
          title: 'Give sandbox terminals the network',
          args: { action: 'on', appliesTo: 'sandbox terminals opened from now on' },
          grant: { action: 'network-on' },
          what: 'turning on the sandbox’s network',
        });
      if (args.action === 'on') ctx.sandbox.setNetwork(true);
      if (args.action === 'off') ctx.sandbox.setNetwork(false);
      const open = ctx.manager
        .list(ownerOf(call))
        .filter((t) => t.info.kind === 'sandbox')
        .map((t) => ({ id: t.info.id, network: t.info.network ?? false }));
      const state = runner.kind === 'proot' ? 'not isolated (PRoot)' : ctx.sandbox.network ? 'on' : 'off';
      return success(
        `Sandbox network: ${state} for terminals opened from now on.` +
          (open.length
            ? ` Open sandbox terminals: ${open.map((o) => `${o.id} ${o.network ? 'on' : 'off'}`).join(', ')}.`
            : ''),
        { network: state, open },
      );
    },
  });
  return tool;
}
