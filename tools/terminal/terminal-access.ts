/**
 * The checks every tool that acts on a terminal makes: it exists and is the caller's, its program
 * still runs, and no person is typing in it (a person who took control has it until they hand it
 * back; their own input always passes).
 */
import { ToolCallError } from '../core/result';
import type { ToolContext } from '../core/tool';
import type { TerminalContext } from './context';
import { isPerson, ownerOf } from './owner';
import type { Terminal } from './terminal';

export function terminalFor(ctx: TerminalContext, id: string, call: ToolContext): Terminal {
  return ctx.manager.get(id, ownerOf(call));
}

export function actingTerminal(ctx: TerminalContext, id: string, call: ToolContext): Terminal {
  const t = terminalFor(ctx, id, call);
  if (t.exited)
    throw new ToolCallError(
      'EXECUTION_FAILED',
      `The program in terminal ${id} has ended (exit status ` +
        `${t.exited.exitCode ?? `signal ${t.exited.signal ?? '?'}`}).`,
      {
        hint:
          'Read its last output with terminal.observe or terminal.snapshot, then close it (terminal.close) and ' +
          'open another (terminal.create).',
        data: { slug: 'terminal-exited' },
      },
    );
  if (t.controller === 'person' && !isPerson(call))
    throw new ToolCallError('EXECUTION_FAILED', `A person has taken control of terminal ${id} and is typing in it.`, {
      hint: 'Wait until they hand it back; meanwhile terminal.observe and terminal.snapshot still read it.',
      data: { slug: 'terminal-person-control' },
    });
  return t;
}
