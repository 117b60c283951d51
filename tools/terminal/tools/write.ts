/**
 * terminal.write: keys and text to a terminal, for full-screen programs, prompts and anything
 * terminal.run does not fit. To a host or phone terminal, anything that could start a command asks
 * the person first: a line end or any other control key, and any key at all while a program other
 * than the terminal's shell reads the keyboard (in less, vi or top a single letter can run a
 * command), and always on a phone, where what reads the keys cannot be known. Approving "for the
 * session" lets this client drive this terminal for the rest of its session.
 */
import { z } from 'zod';
import { success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import type { TerminalContext } from '../context';
import { perTerminal, terminalMetadata } from '../declare';
import { KEY_NAMES_HELP, describeKeys, encodeKeys, hasControlBytes } from '../keys';
import { MAX_WRITE_CHARS } from '../limits';
import { typedByPerson } from '../owner';
import { actingTerminal } from '../terminal-access';

export function writeTool(ctx: TerminalContext): Tool {
  const tool: Tool = defineTool({
    id: 'terminal.write',
    title: 'Send keys to a terminal',
    description: `Sends text and keys to a terminal as if typed. Key names in braces become their keys: {Enter}, {Ctrl-C}, {Up}, {Esc}, {Tab}, {F5}… (known: ${KEY_NAMES_HELP}); control characters may also be sent as JSON escapes ("\\r", "\\u001b"); backslashes are sent as they are. Answers at once: read the result with terminal.snapshot, terminal.observe or terminal.wait. In sandbox terminals it needs no approval; to host and phone terminals, keys that could start a command (Enter, control keys, or any key while a program other than the shell is in front) wait for the person.`,
    input: z.object({
      id: z.string().min(1).max(64).describe('The terminal, as terminal.create returned it.'),
      data: z
        .string()
        .min(1)
        .max(MAX_WRITE_CHARS)
        .describe(
          `Text and {Key} names to send, at most ${MAX_WRITE_CHARS} characters, e.g. "q", ":wq{Enter}", "{Ctrl-C}".`,
        ),
      literal: z
        .boolean()
        .default(false)
        .describe('Send `data` exactly as given, with no {Key} names (default false).'),
    }),
    metadata: terminalMetadata('HIGH', 'shell'),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    selfGated: true,
    runPolicy: 'mutating',
    breakerScope: perTerminal,
    async run(args, call) {
      const t = actingTerminal(ctx, args.id, call);
      const bytes = args.literal ? args.data : encodeKeys(args.data, { applicationCursor: t.screen.applicationCursor });
      if (
        t.info.kind !== 'sandbox' &&
        !typedByPerson(call) &&
        !ctx.approvals.terminalGranted(call.sessionId, t.info.id)
      ) {
        const fg = t.foreground();
        if (hasControlBytes(bytes) || fg.kind !== 'shell') {
          const shown = describeKeys(bytes);
          // Let the echo of earlier keys arrive, so the card shows the line this would submit.
          await t.settle();
          await ctx.approvals.ask({
            tool,
            ctx: call,
            title: `Type into ${t.info.backend} terminal ${t.info.id}: ${shown.length > 80 ? `${shown.slice(0, 77)}…` : shown}`,
            args: {
              terminal: t.info.id,
              backend: t.info.backend,
              keys: shown,
              inFront: fg.kind === 'unknown' ? 'unknown (a phone)' : fg.name,
              screenNow: await t.screen.cursorLines(2),
            },
            grant: { terminal: t.info.id },
            what: `typing keys that can start a command into the ${t.info.backend} terminal ${t.info.id}`,
          });
        }
      }
      t.write(bytes);
      return success(`Sent ${Buffer.byteLength(bytes)} bytes to terminal ${t.info.id}.`, {
        id: t.info.id,
        bytes: Buffer.byteLength(bytes),
      });
    },
  });
  return tool;
}
