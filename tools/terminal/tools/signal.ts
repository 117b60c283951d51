/**
 * terminal.signal: stops, suspends or ends the program in front. INT, QUIT and TSTP are the
 * terminal's keys (Ctrl-C, Ctrl-\, Ctrl-Z); TERM, HUP and KILL go to the foreground process group.
 * A signal cannot start anything, so it asks no one.
 */
import { z } from 'zod';
import { success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import { TERMINAL_SIGNALS, type TerminalSignal } from '../backends/types';
import type { TerminalContext } from '../context';
import { TERMINAL_ID, perTerminal, terminalMetadata } from '../declare';
import { actingTerminal } from '../terminal-access';

export function signalTool(ctx: TerminalContext): Tool {
  return defineTool({
    id: 'terminal.signal',
    title: 'Signal the program in a terminal',
    description:
      'Signals the program in front: INT is Ctrl-C, TSTP Ctrl-Z, TERM asks it to end, KILL ends it; KILL to the ' +
      'shell ends the terminal.',
    input: z.object({
      id: TERMINAL_ID,
      signal: z.enum(TERMINAL_SIGNALS as [TerminalSignal, ...TerminalSignal[]]),
    }),
    metadata: terminalMetadata('MEDIUM'),
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'mutating',
    breakerScope: perTerminal,
    run(args, call) {
      const t = actingTerminal(ctx, args.id, call);
      const fg = t.foreground();
      t.signal(args.signal);
      const target = fg.kind === 'unknown' ? 'the program in front' : fg.name;
      return success(`Sent ${args.signal} to ${target} in terminal ${t.info.id}.`, {
        id: t.info.id,
        signal: args.signal,
        foreground: fg.kind === 'unknown' ? null : fg.name,
      });
    },
  });
}
