/**
 * terminal.resize: a new window size; the program gets SIGWINCH (a phone, a window-size packet) as
 * in a resized window.
 */
import { z } from 'zod';
import { success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import type { TerminalContext } from '../context';
import { TERMINAL_ID, perTerminal, terminalMetadata } from '../declare';
import { MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS } from '../limits';
import { actingTerminal } from '../terminal-access';

export function resizeTool(ctx: TerminalContext): Tool {
  return defineTool({
    id: 'terminal.resize',
    title: 'Resize a terminal',
    description: "Sets the terminal's size; the program in it is told, as when a person resizes a window.",
    input: z.object({
      id: TERMINAL_ID,
      cols: z.number().int().min(MIN_COLS).max(MAX_COLS),
      rows: z.number().int().min(MIN_ROWS).max(MAX_ROWS),
    }),
    metadata: terminalMetadata('LOW'),
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'mutating',
    breakerScope: perTerminal,
    run(args, call) {
      const t = actingTerminal(ctx, args.id, call);
      t.resize(args.cols, args.rows);
      return success(`Terminal ${t.info.id} is now ${args.cols}x${args.rows}.`, {
        id: t.info.id,
        cols: args.cols,
        rows: args.rows,
      });
    },
  });
}
