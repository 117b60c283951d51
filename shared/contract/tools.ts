/**
 * Tools as the UI lists them, their toolsets, and how a call ended: error codes, risk, annotations,
 * results; and the host's own info. Part of the contract (shared/contract.ts).
 */
import { z } from 'zod';
import { TOOL_ERROR_CODES } from '../error-codes';

export const ErrorCode = z.enum(TOOL_ERROR_CODES);
export const Risk = z.enum(['LOW', 'MEDIUM', 'HIGH']);

export const Annotations = z.object({
  readOnlyHint: z.boolean(),
  destructiveHint: z.boolean(),
  idempotentHint: z.boolean(),
  openWorldHint: z.boolean(),
  sensitiveAction: z.boolean(),
});
export type Annotations = z.infer<typeof Annotations>;

export const HostInfo = z.object({
  version: z.string(),
  mode: z.enum(['electron', 'headless']),
  startedAt: z.number(),
  uiUrl: z.string(),
  mcpUrl: z.string(),
  dataDir: z.string(),
  /** The exact command that starts the stdio bridge to this host (for MCP hosts that only speak stdio). */
  stdioBridge: z.object({ command: z.string(), args: z.array(z.string()) }),
  toolCount: z.number(),
  devices: z.array(z.object({ serial: z.string(), state: z.string(), model: z.string().optional() })),
  browser: z.object({ started: z.boolean(), url: z.string().optional(), tabs: z.number() }),
});
export type HostInfo = z.infer<typeof HostInfo>;

export const ToolSummary = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  risk: Risk,
  tags: z.array(z.string()),
  annotations: Annotations,
  selfGated: z.boolean(),
  inputSchema: z.record(z.string(), z.unknown()),
  /** The toolset the tool belongs to; absent for a tool registered in none (never listed to an MCP client). */
  toolset: z.string().optional(),
});
export type ToolSummary = z.infer<typeof ToolSummary>;

/** A toolset as the Tools page shows it: its tools, what it costs a client's tools/list, and who has it. */
export const ToolsetSummary = z.object({
  name: z.string(),
  summary: z.string(),
  toolIds: z.array(z.string()),
  /** Bytes of its entries in a tools/list answer. */
  bytes: z.number().int().min(0),
  /** On in every MCP session (the toolset tools themselves). */
  alwaysOn: z.boolean(),
  /** Part of the default profile a client gets when the person chose nothing. */
  inDefaultProfile: z.boolean(),
  /** Names of the clients whose token allows it. */
  clients: z.array(z.string()),
});
export type ToolsetSummary = z.infer<typeof ToolsetSummary>;
export const ToolsetNames = z.array(z.string().regex(/^[a-z][a-z0-9-]{0,31}$/)).max(64);

export const Content = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() }),
]);
export type Content = z.infer<typeof Content>;

export const ToolError = z.object({
  code: ErrorCode,
  message: z.string(),
  hint: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export const CallOutcome = z.object({
  callId: z.string(),
  ok: z.boolean(),
  content: z.array(Content),
  structured: z.unknown().optional(),
  error: ToolError.optional(),
  rendered: z.string(),
});
export type CallOutcome = z.infer<typeof CallOutcome>;
