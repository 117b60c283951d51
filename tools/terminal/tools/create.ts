/** terminal.create: opens a terminal on a backend and answers with its id. */
import { z } from 'zod';
import { ToolCallError, success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import type { TerminalContext } from '../context';
import { terminalMetadata } from '../declare';
import { MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS } from '../limits';
import { openerOf, ownerOf } from '../owner';
import { ROOTFS_NAME } from '../sandbox/rootfs-store';
import type { Terminal } from '../terminal';
import { resolveWorkspace } from '../workspaces';

/** How long create waits for the shell's first output (its prompt) before answering. */
const PROMPT_WAIT_MS = 5000;

function firstOutput(t: Terminal, ms: number): Promise<void> {
  if (t.log.end > 0) return Promise.resolve();
  return new Promise((resolve) => {
    const sub = t.onOutput(() => {
      // Let the rest of the prompt arrive.
      setTimeout(done, 50);
    });
    const exit = t.onExit(() => done());
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      sub.dispose();
      exit.dispose();
      resolve();
    }
  });
}

export function createTool(ctx: TerminalContext): Tool {
  return defineTool({
    id: 'terminal.create',
    title: 'Open a terminal',
    description:
      'Opens an interactive terminal and returns its id: "sandbox" is offline Linux seeing only the workspace (at ' +
      '/workspace), "host" this machine if allowed, "device:<serial>" a phone.',
    input: z.object({
      backend: z
        .string()
        .regex(/^(sandbox|host|device:\S{1,200})$/, 'sandbox, host or device:<serial>')
        .default('sandbox'),
      workspace: z.string().min(1).max(4096).optional().describe('One terminal.workspaces lists, or inside it.'),
      cols: z.number().int().min(MIN_COLS).max(MAX_COLS).default(120),
      rows: z.number().int().min(MIN_ROWS).max(MAX_ROWS).default(32),
      title: z.string().max(80).optional().describe('Shown to the person.'),
      rootfs: z
        .string()
        .regex(ROOTFS_NAME, 'a root file system name (lower case letters, digits, . _ -)')
        .optional()
        .describe('Sandbox only: one terminal.linux_status lists.'),
    }),
    metadata: terminalMetadata('MEDIUM'),
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: false,
    },
    runPolicy: 'mutating',
    async run(args, call) {
      const kind = args.backend === 'sandbox' ? 'sandbox' : args.backend === 'host' ? 'host' : 'device';
      if (kind === 'host' && !ctx.settings.hostEnabled())
        throw new ToolCallError(
          'UNSUPPORTED',
          'Terminals on this machine are off: the person has not turned on the setting terminalHostEnabled.',
          {
            hint:
              'Use the sandbox backend (the default), or ask the user to turn on "terminalHostEnabled" in ' +
              'Toolgate’s Settings.',
            data: { setting: 'terminalHostEnabled' },
          },
        );
      if (kind === 'device' && args.workspace !== undefined)
        throw new ToolCallError(
          'INVALID_ARGUMENT',
          'A phone terminal has no workspace folder; leave `workspace` out.',
          {
            data: { fields: ['workspace'] },
          },
        );
      if (kind !== 'sandbox' && args.rootfs !== undefined)
        throw new ToolCallError('INVALID_ARGUMENT', '`rootfs` applies to sandbox terminals only.', {
          data: { fields: ['rootfs'] },
        });
      if (kind === 'device' && !ctx.devices)
        throw new ToolCallError('UNSUPPORTED', 'This host has no device support.', {
          hint: 'Use the sandbox backend.',
        });
      const workspace = kind === 'device' ? undefined : resolveWorkspace(ctx.roots, args.workspace);
      const t = await ctx.manager.openTerminal({
        kind,
        backend: args.backend,
        owner: ownerOf(call),
        openedBy: openerOf(call),
        cols: args.cols,
        rows: args.rows,
        ...(args.title ? { title: args.title } : {}),
        ...(workspace ? { workspace } : {}),
        ...(args.rootfs ? { rootfs: args.rootfs } : {}),
      });
      await firstOutput(t, PROMPT_WAIT_MS);
      const info = t.info;
      const answer = {
        id: info.id,
        backend: info.backend,
        where: info.where,
        ...(info.workspace ? { workspace: kind === 'sandbox' ? '/workspace' : info.workspace } : {}),
        ...(info.rootfs ? { rootfs: info.rootfs } : {}),
        ...(info.network !== undefined ? { network: info.network } : {}),
        cols: t.cols,
        rows: t.rows,
        state: t.state,
      };
      return success(
        `Opened terminal ${info.id} (${info.where}). Run commands with terminal.run {id: "${info.id}", command}; ` +
          `read the screen with terminal.snapshot.`,
        answer,
      );
    },
  });
}
