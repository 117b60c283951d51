/** terminal.observe: the output since the last observe (or since a cursor), bounded, and the cursor to go on from. */
import { z } from 'zod';
import { success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import type { TerminalContext } from '../context';
import { TERMINAL_ID, perTerminal, terminalMetadata } from '../declare';
import { MAX_OBSERVE_BYTES } from '../limits';
import { terminalFor } from '../terminal-access';
import { completeUtf8Length, terminalText } from '../terminal-text';

export function observeTool(ctx: TerminalContext): Tool {
  return defineTool({
    id: 'terminal.observe',
    title: 'Read new terminal output',
    description:
      'Returns what the terminal printed since your last observe (or cursor), without escape sequences unless raw, ' +
      'and the cursor to go on from.',
    input: z.object({
      id: TERMINAL_ID,
      cursor: z.number().int().min(0).optional(),
      maxBytes: z.number().int().min(1).max(MAX_OBSERVE_BYTES).default(16_384),
      raw: z.boolean().default(false),
    }),
    metadata: terminalMetadata('LOW'),
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    breakerScope: perTerminal,
    run(args, call) {
      const t = terminalFor(ctx, args.id, call);
      const read = t.log.read(args.cursor ?? t.observeCursor, args.maxBytes);
      const whole = completeUtf8Length(read.data);
      const to = read.from + whole;
      const bytes = read.data.subarray(0, whole).toString('utf8');
      t.observeCursor = to;
      const text = args.raw ? bytes : terminalText(bytes);
      const more = read.more + (read.data.length - whole);
      const notes = [
        read.dropped > 0 ? `[${read.dropped} older bytes are no longer kept]` : '',
        more > 0 ? `[${more} more bytes: observe again]` : '',
        t.exited ? `[the program ended, exit status ${t.exited.exitCode ?? `signal ${t.exited.signal ?? '?'}`}]` : '',
      ].filter(Boolean);
      return success([text === '' ? '(no new output)' : text, ...notes].join('\n'), {
        id: t.info.id,
        text,
        cursor: to,
        from: read.from,
        dropped: read.dropped,
        more,
        state: t.state,
        ...(t.exited ? { exitCode: t.exited.exitCode } : {}),
      });
    },
  });
}
