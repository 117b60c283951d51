/**
 * What the UI shows of the things tools drive: phones, the browser, terminals. Part of the contract
 * (shared/contract.ts).
 */
import { z } from 'zod';
import { ErrorCode } from './tools';

export const DeviceView = z.object({
  serial: z.string(),
  state: z.string(),
  model: z.string().optional(),
  telemetry: z.object({
    screenOn: z.boolean().optional(),
    foreground: z.string().optional(),
    keyboardShown: z.boolean().optional(),
    at: z.number().optional(),
  }),
});
export type DeviceView = z.infer<typeof DeviceView>;

export const ScreenFrame = z.object({
  data: z.string(),
  mimeType: z.string(),
  width: z.number(),
  height: z.number(),
  at: z.number(),
  fps: z.number(),
});
export type ScreenFrame = z.infer<typeof ScreenFrame>;

export const BrowserView = z.object({
  started: z.boolean(),
  url: z.string().optional(),
  title: z.string().optional(),
  tabs: z.array(z.object({ id: z.string(), url: z.string(), title: z.string(), active: z.boolean() })),
  /**
   * What the browser tools did, oldest first: `refused` is Toolgate saying no (PERMISSION_DENIED), `failed` any other
   * error.
   */
  recentActions: z.array(
    z.object({
      tool: z.string(),
      target: z.string().optional(),
      at: z.number(),
      outcome: z.enum(['ok', 'failed', 'refused']),
      code: ErrorCode.optional(),
    }),
  ),
  dialog: z.string().optional(),
  /**
   * How the browser was reached: launched (with a fresh or persistent profile) or connected to (CDP, Playwright
   * server).
   */
  connection: z
    .object({
      mode: z.enum(['launch', 'persistent', 'cdp', 'server']),
      target: z.string(),
      headless: z.boolean().optional(),
    })
    .optional(),
});
export type BrowserView = z.infer<typeof BrowserView>;

/** Where in a terminal's output an agent's terminal.run shows its command, so a viewer marks that line. */
export const TerminalRunMark = z.object({ offset: z.number().int().min(0), callId: z.string() });
/** A run an agent made with terminal.run: its command, where it shows in the output, and its exit status once known. */
export const TerminalRunView = z.object({
  callId: z.string(),
  /** The command as the agent gave it (the start of a long one). */
  command: z.string(),
  startedAt: z.number(),
  /** Byte offset in the terminal's output where the run's command shows. */
  offset: z.number().int().min(0),
  endedAt: z.number().optional(),
  exitCode: z.number().int().nullable().optional(),
});
export const TerminalView = z.object({
  id: z.string(),
  title: z.string(),
  /** `sandbox`, `host` or `device:<serial>`. */
  backend: z.string(),
  /** The MCP client (its token's name) that owns it, or the person. */
  owner: z.string(),
  /** The program that opened it, as it named itself. */
  openedBy: z.string(),
  /** Where it runs, in words (bubblewrap sandbox and root file system, the shell, the phone). */
  where: z.string(),
  createdAt: z.number(),
  lastActivity: z.number(),
  state: z.enum(['running', 'exited']),
  exitCode: z.number().int().nullable().optional(),
  cols: z.number().int(),
  rows: z.number().int(),
  /** Who types: the agent, or the person after "take control". */
  controller: z.enum(['agent', 'person']),
  workspace: z.string().optional(),
  rootfs: z.string().optional(),
  network: z.boolean().optional(),
  runs: z.array(TerminalRunView),
});
export type TerminalView = z.infer<typeof TerminalView>;
