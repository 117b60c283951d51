/** terminal.resize: a new window size; the program gets SIGWINCH (a phone, a window-size packet) as in a resized window. */
import { z } from 'zod';
import { success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import type { TerminalContext } from '../context';
import { perTerminal, terminalMetadata } from '../declare';
import { MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS } from '../limits';
import { actingTerminal } from '../terminal-access';

export function resizeTool(ctx: TerminalContext): Tool {
  return defineTool({
    id: 'terminal.resize',
    title: 'Resize a terminal',
    description:
      'Sets the terminal’s window size; the program in it is told (SIGWINCH), as when a person resizes a window.',
    input: z.object({
      id: z.string().min(1).max(64).describe('The terminal, as terminal.create returned it.'),
      cols: z.number().int().min(MIN_COLS).max(MAX_COLS).describe(`Columns (${MIN_COLS}–${MAX_COLS}).`),
      rows: z.number().int().min(MIN_ROWS).max(MAX_ROWS).describe(`Rows (${MIN_ROWS}–${MAX_ROWS}).`),
    }),
    metadata: terminalMetadata('LOW'),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
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
