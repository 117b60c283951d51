/** terminal.snapshot: the screen as a person sees it now, as a text grid. */
import { z } from 'zod';
import { success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import type { TerminalContext } from '../context';
import { TERMINAL_ID, perTerminal, terminalMetadata } from '../declare';
import { terminalFor } from '../terminal-access';

export function snapshotTool(ctx: TerminalContext): Tool {
  return defineTool({
    id: 'terminal.snapshot',
    title: 'Read a terminal’s screen',
    description: "Returns the terminal's screen as a person sees it: its rows and the cursor (0-based column, row).",
    input: z.object({ id: TERMINAL_ID }),
    metadata: terminalMetadata('LOW'),
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    breakerScope: perTerminal,
    async run(args, call) {
      const t = terminalFor(ctx, args.id, call);
      const snap = await t.screen.snapshot();
      const fg = t.foreground();
      const header =
        `[${snap.cols}x${snap.rows}, cursor at column ${snap.cursor.x} row ${snap.cursor.y}, ` +
        `${snap.buffer} ` +
        `screen${fg.kind === 'unknown' ? '' : `, ${fg.name} in front`}${t.exited ? ', program ended' : ''}]`;
      const stale =
        snap.skippedBytes > 0
          ? `\n[${snap.skippedBytes} bytes came faster than the screen could follow and were ` +
            `skipped; rows may be stale]`
          : '';
      return success(`${header}\n${snap.lines.join('\n')}${stale}`, {
        id: t.info.id,
        ...snap,
        foreground: fg.kind === 'unknown' ? null : fg.name,
        state: t.state,
      });
    },
  });
}
