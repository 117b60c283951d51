/** terminal.workspaces: the folders a terminal may start in. */
import { z } from 'zod';
import { success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import type { TerminalContext } from '../context';
import { terminalMetadata } from '../declare';
import { listWorkspaces } from '../workspaces';

export function workspacesTool(ctx: TerminalContext): Tool {
  return defineTool({
    id: 'terminal.workspaces',
    title: 'List terminal folders',
    description:
      "Lists the folders a terminal may start in: the file tools' workspace (the default) and those the person added.",
    input: z.object({}),
    metadata: terminalMetadata('LOW'),
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    run() {
      const entries = listWorkspaces(ctx.roots).map((e, i) => ({ ...e, default: i === 0 }));
      const lines = entries.map(
        (e) =>
          `${e.path}${e.default ? ' (default)' : ''}${e.source === 'setting' ? ' [Settings]' : ''}` +
          `${e.exists ? '' : ' — missing'}${e.problem ? ` — not usable: ${e.problem}` : ''}`,
      );
      return success(lines.join('\n'), { workspaces: entries });
    },
  });
}
