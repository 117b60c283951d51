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
import { TERMINAL_ID, perTerminal, terminalMetadata } from '../declare';
import { KEY_NAMES_HELP, describeKeys, encodeKeys, hasControlBytes, unknownKeyNames } from '../keys';
import { MAX_WRITE_CHARS } from '../limits';
import { typedByPerson } from '../owner';
import { actingTerminal } from '../terminal-access';

export function writeTool(ctx: TerminalContext): Tool {
  const tool: Tool = defineTool({
    id: 'terminal.write',
    title: 'Send keys to a terminal',
    description:
      'Types text and keys ({Enter}, {Tab}, {Esc}, {Up}, {F5}, {Ctrl-C}…) into a terminal, answering at once; on ' +
      'host and phone, keys that could start a command ask the person.',
    input: z.object({
      id: TERMINAL_ID,
      data: z.string().min(1).max(MAX_WRITE_CHARS).describe('e.g. ":wq{Enter}".'),
      literal: z.boolean().default(false).describe('No {Key} names.'),
    }),
    metadata: terminalMetadata('HIGH', 'shell'),
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: true,
    },
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
            title:
              `Type into ${t.info.backend} terminal ${t.info.id}: ` +
              `${shown.length > 80 ? `${shown.slice(0, 77)}…` : shown}`,
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
      const unknown = args.literal ? [] : unknownKeyNames(args.data);
      const note = unknown.length
        ? `\n[${unknown.map((n) => `{${n}}`).join(' ')} is no key name and went as text; keys: ${KEY_NAMES_HELP}.]`
        : '';
      return success(`Sent ${Buffer.byteLength(bytes)} bytes to terminal ${t.info.id}.${note}`, {
        id: t.info.id,
        bytes: Buffer.byteLength(bytes),
        ...(unknown.length ? { unknownKeys: unknown } : {}),
      });
    },
  });
  return tool;
}
