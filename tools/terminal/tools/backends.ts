/** terminal.backends: each backend, available or not and why, what it isolates, and your open terminals. */
import { z } from 'zod';
import { success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import { backendStatuses } from '../backends/backend-status';
import type { TerminalContext } from '../context';
import { terminalMetadata } from '../declare';
import { ownerOf } from '../owner';

export function backendsTool(ctx: TerminalContext): Tool {
  return defineTool({
    id: 'terminal.backends',
    title: 'List terminal backends',
    description:
      'Lists where terminals can run: "sandbox" (the default: which confinement, bubblewrap or PRoot, and why; its root file systems; the network), "host" (on or off in the person’s Settings), and "device:<serial>" for each phone adb sees; each with whether it is available now, why, and what it isolates. Also lists your open terminals.',
    input: z.object({}),
    metadata: terminalMetadata('LOW'),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    runPolicy: 'quickRead',
    run(_args, call) {
      const backends = backendStatuses(ctx);
      const open = ctx.manager.list(ownerOf(call)).map((t) => ({
        id: t.info.id,
        backend: t.info.backend,
        title: t.info.title,
        state: t.state,
        controller: t.controller,
      }));
      const lines = backends.map(
        (b) => `${b.backend}: ${b.available ? 'available' : 'not available'} — ${b.why}. Isolation: ${b.isolation}.`,
      );
      lines.push(
        open.length
          ? `Your open terminals: ${open.map((o) => `${o.id} (${o.backend}, ${o.state})`).join(', ')}`
          : 'You have no open terminals.',
      );
      return success(lines.join('\n'), { backends, open });
    },
  });
}
