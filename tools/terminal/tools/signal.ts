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
import { perTerminal, terminalMetadata } from '../declare';
import { actingTerminal } from '../terminal-access';

export function signalTool(ctx: TerminalContext): Tool {
  return defineTool({
    id: 'terminal.signal',
    title: 'Signal the program in a terminal',
    description:
      'Sends a signal to the program in the terminal’s foreground: INT (Ctrl-C: stop it), QUIT (Ctrl-\\), TSTP (Ctrl-Z: suspend it), TERM or HUP (ask it to end), KILL (end it now). Sending KILL or HUP while the shell itself is in front ends the terminal’s shell.',
    input: z.object({
      id: z.string().min(1).max(64).describe('The terminal, as terminal.create returned it.'),
      signal: z
        .enum(TERMINAL_SIGNALS as [TerminalSignal, ...TerminalSignal[]])
        .describe('INT, TERM, KILL, HUP, QUIT or TSTP.'),
    }),
    metadata: terminalMetadata('MEDIUM'),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
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
