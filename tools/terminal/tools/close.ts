/** terminal.close: ends the terminal's program and every process it started. */
import { z } from 'zod';
import { success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import type { TerminalContext } from '../context';
import { terminalMetadata } from '../declare';
import { ownerOf } from '../owner';

export function closeTool(ctx: TerminalContext): Tool {
  return defineTool({
    id: 'terminal.close',
    title: 'Close a terminal',
    description:
      'Closes a terminal: its shell and every process started in it are ended. Closing one that is already closed answers closed:false.',
    input: z.object({ id: z.string().min(1).max(64).describe('The terminal, as terminal.create returned it.') }),
    metadata: terminalMetadata('MEDIUM'),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    runPolicy: 'mutating',
    async run(args, call) {
      const owner = ownerOf(call);
      const t = ctx.manager.list(owner).find((x) => x.info.id === args.id);
      if (!t)
        return success(`Terminal ${args.id} is not open (already closed, or not one of yours).`, {
          id: args.id,
          closed: false,
        });
      await ctx.manager.closeTerminal(args.id);
      ctx.approvals.forgetTerminal(args.id);
      return success(`Closed terminal ${args.id}; its processes are ended.`, { id: args.id, closed: true });
    },
  });
}
