/**
 * The contract between the host and the renderer. Every request, response and event that crosses
 * IPC (Electron) or HTTP + WebSocket (headless) is declared here once as a zod schema; both sides
 * derive their types from it and the host parses every argument with it. Imports only zod.
 *
 * Transport: a method `m` is `POST /api/rpc/m` with the JSON input as body (headless) or the IPC
 * channel `toolgate:m` (Electron). Events arrive on the WebSocket `/api/events` or the IPC channel
 * `toolgate:event`. Every method is the person's: over HTTP it needs the UI session and its CSRF
 * header (ui-session.ts); an MCP client's token is refused there.
 */
import { z } from 'zod';
import type { MethodNameFromList } from './method-names';

export const ErrorCode = z.enum([
  'INVALID_ARGUMENT',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'TIMEOUT',
  'RATE_LIMITED',
  'CIRCUIT_OPEN',
  'EXECUTION_FAILED',
  'UNSUPPORTED',
  'UNKNOWN',
]);
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
});
export type ToolSummary = z.infer<typeof ToolSummary>;

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

export const Span = z.object({
  spanId: z.string(),
  callId: z.string(),
  parentCallId: z.string().optional(),
  toolId: z.string(),
  /** The session's label (`<client>#<n>` for MCP, `ui` for the UI), never an MCP session id. */
  sessionId: z.string(),
  requesterKind: z.string(),
  attempt: z.number(),
  startedAt: z.number(),
  durationMs: z.number(),
  outcome: z.enum(['success', 'error', 'cancelled']),
  errorCode: ErrorCode.optional(),
  errorSlug: z.string().optional(),
  /** The error's own words, with every run of argument text replaced by a placeholder (‹url›); at most 1 KB. */
  errorText: z.string().optional(),
  backoffMs: z.number(),
  /** Time within the span spent waiting for a person, kept out of `durationMs` (the run). */
  personWaitMs: z.number().optional(),
  argsDigest: z.object({
    fields: z.record(z.string(), z.object({ kind: z.string(), length: z.number(), printable: z.number().optional() })),
    totalLength: z.number(),
  }),
});
export type Span = z.infer<typeof Span>;

export const SpanQuery = z.object({
  toolId: z.string().optional(),
  outcome: z.enum(['success', 'error', 'cancelled']).optional(),
  callId: z.string().optional(),
  since: z.number().optional(),
  until: z.number().optional(),
  limit: z.number().int().min(1).max(10_000).default(500),
});

export const UsageStats = z.object({
  toolId: z.string(),
  count: z.number(),
  successes: z.number(),
  failures: z.number(),
  latencyMs: z.object({
    min: z.number(),
    mean: z.number(),
    p50: z.number(),
    p95: z.number(),
    p99: z.number(),
    max: z.number(),
  }),
  /** Histogram buckets: upper bound in ms (Infinity as null) and count. */
  buckets: z.array(z.object({ le: z.number().nullable(), count: z.number() })),
  /** Calls and failures per minute, oldest first, for the success-rate chart. */
  perMinute: z.array(z.object({ minute: z.number(), calls: z.number(), failures: z.number() })),
  lastError: z.object({ code: ErrorCode, message: z.string(), at: z.number() }).optional(),
});
export type UsageStats = z.infer<typeof UsageStats>;

/**
 * Usage statistics and the host's span sequence number they run up to. Span events carry their own
 * number, so the UI folds in exactly the spans a report does not include yet, whatever order the
 * report and the events arrive in.
 */
export const UsageReport = z.object({ stats: z.array(UsageStats), throughSeq: z.number().int().min(0) });
export type UsageReport = z.infer<typeof UsageReport>;

export const BreakerStateName = z.enum(['CLOSED', 'OPEN', 'HALF_OPEN']);
export const BreakerTransition = z.object({
  toolId: z.string(),
  from: BreakerStateName,
  to: BreakerStateName,
  at: z.number(),
  cause: z.string(),
});
export type BreakerTransition = z.infer<typeof BreakerTransition>;
export const BreakerView = z.object({
  /** The breaker's key: the tool id, or `toolId@<digest>` for one target of a tool that keeps a breaker per target. */
  toolId: z.string(),
  /** For a per-target breaker: the short digest naming the target (never the target's text). */
  target: z.string().optional(),
  state: BreakerStateName,
  consecutiveFailures: z.number(),
  /** When OPEN: ms until the probe is admitted. */
  cooldownRemainingMs: z.number(),
  probeAt: z.number().optional(),
  lastError: z.string().optional(),
  transitions: z.array(BreakerTransition),
});
export type BreakerView = z.infer<typeof BreakerView>;

/** A caller, as a person reads it: its kind, its id (a session label or a parent call id) and its name. */
const Caller = z.object({ kind: z.string(), id: z.string().optional(), label: z.string().optional() });
/**
 * Who asked: `id` is the session's label (`<client>#<n>`) or the parent call, `label` the client
 * program's own name or the batch or shortcut; `step` the step of a batch or shortcut; `via` who
 * asked for that batch or shortcut.
 */
export const Requester = Caller.extend({ step: z.number().optional(), via: Caller.optional() });
export const ApprovalTarget = z.object({
  kind: z.enum(['device', 'folder', 'host']),
  value: z.string(),
  label: z.string(),
});
export const Decision = z.enum(['approve_once', 'approve_session', 'approve_target', 'deny']);
/** One way to approve a waiting call, and what it covers ("this call only", "app_uninstall on device X, for …"). */
export const ApprovalChoice = z.object({
  decision: z.enum(['approve_once', 'approve_session', 'approve_target']),
  label: z.string(),
  covers: z.string(),
});
export type ApprovalChoice = z.infer<typeof ApprovalChoice>;
export const PendingApproval = z.object({
  approvalId: z.string(),
  callId: z.string(),
  /** The session's label (`<client>#<n>`), never an MCP session id. */
  sessionId: z.string(),
  toolId: z.string(),
  title: z.string(),
  /** What will run: the parsed arguments, defaults filled in. */
  args: z.unknown(),
  /** Fields the caller sent that the tool does not declare, as sent: they will not be used. */
  ignored: z.record(z.string(), z.unknown()).optional(),
  target: ApprovalTarget.optional(),
  /** The approvals offered (a denial always is). */
  choices: z.array(ApprovalChoice).default([]),
  /** The approval rule that made the call ask, when one did. */
  rule: z.string().optional(),
  risk: Risk,
  annotations: Annotations,
  requester: Requester,
  requestedAt: z.number(),
  expiresAt: z.number(),
});
export type PendingApproval = z.infer<typeof PendingApproval>;

export const DecideInput = z.object({
  approvalId: z.string().min(1),
  decision: Decision,
  reason: z.string().max(2000).optional(),
});

export const AuditEntry = z.object({
  id: z.number(),
  at: z.number(),
  callId: z.string(),
  /** The session's label: `<client>#<n>` names the MCP client token the call came with. */
  sessionId: z.string(),
  toolId: z.string(),
  argsDigest: z.string(),
  /** `allow` is a rule's; `withdrawn` a caller that left; `cancelled` what older versions wrote for it. */
  decision: z.enum([
    'approve_once',
    'approve_session',
    'approve_target',
    'allow',
    'deny',
    'timeout',
    'withdrawn',
    'cancelled',
  ]),
  reason: z.string().optional(),
  decider: z.string().optional(),
  /** What the approval covered. */
  scope: z.string().optional(),
  /** The approval rule that decided. */
  rule: z.string().optional(),
  waitedMs: z.number().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const RuleEffect = z.enum(['allow', 'ask', 'deny']);
/** A person's approval rule: `write_file path=notes/**` allow. */
export const ApprovalRule = z.object({
  id: z.number(),
  effect: RuleEffect,
  tool: z.string(),
  args: z.array(z.object({ field: z.string(), pattern: z.string() })),
  /** The rule as written: `app_uninstall packageName=com.android.*`. */
  text: z.string(),
  note: z.string().optional(),
  createdAt: z.number(),
  /** The registered tools its tool pattern matches now. */
  matchesTools: z.number(),
});
export type ApprovalRule = z.infer<typeof ApprovalRule>;

export const ShortcutParam = z.object({
  name: z.string(),
  type: z.string(),
  description: z.string().optional(),
  required: z.boolean().optional(),
  default: z.unknown().optional(),
});
export const ShortcutDefinition = z.object({
  id: z.string(),
  description: z.string(),
  preconditions: z.array(z.unknown()).optional(),
  params: z.array(ShortcutParam).default([]),
  steps: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()).default({}) })),
});
export type ShortcutDefinition = z.infer<typeof ShortcutDefinition>;
export const ShortcutSuggestion = z.object({
  tools: z.array(z.string()),
  count: z.number(),
  draft: ShortcutDefinition,
});
export type ShortcutSuggestion = z.infer<typeof ShortcutSuggestion>;

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
  recentActions: z.array(z.object({ tool: z.string(), target: z.string().optional(), at: z.number() })),
  dialog: z.string().optional(),
  /** How the browser was reached: launched (with a fresh or persistent profile) or connected to (CDP, Playwright server). */
  connection: z
    .object({
      mode: z.enum(['launch', 'persistent', 'cdp', 'server']),
      target: z.string(),
      headless: z.boolean().optional(),
    })
    .optional(),
});
export type BrowserView = z.infer<typeof BrowserView>;

/** An MCP client's token as the person sees it: never the token itself, which is shown once, when created. */
export const ClientToken = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.number(),
  /** The token's last characters, to tell which config holds which token. */
  hint: z.string(),
  /** The data dir's token (or TOOLGATE_TOKEN), which the stdio bridge reads; it cannot be revoked here. */
  isDefault: z.boolean(),
  openSessions: z.number().int().min(0),
});
export type ClientToken = z.infer<typeof ClientToken>;
export const ClientTokenName = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9][\w .@-]*$/, 'letters, digits, spaces and . _ @ - only, starting with a letter or digit')
  .refine((name) => name.toLowerCase() !== 'default', "'default' is the data dir's token");

/** The person-editable settings. Unset keys use the defaults; `restartRequired` ones apply at the next start. */
export const Settings = z.object({
  workspaceRoot: z
    .string()
    .min(1)
    .optional()
    .describe('Folder the file tools may read and write (default DATA_DIR/workspace). Restart required.'),
  adbHost: z
    .string()
    .min(1)
    .optional()
    .describe('Host of the adb server (default 127.0.0.1; set for a remote adb server). Restart required.'),
  adbPort: z
    .number()
    .int()
    .min(1)
    .max(65535)
    .optional()
    .describe('Port of the adb server (default 5037). Restart required.'),
  browserExecutablePath: z
    .string()
    .min(1)
    .optional()
    .describe('Chrome/Chromium/Edge to launch (default: auto-detected). Restart required.'),
  browserCdpEndpoint: z
    .string()
    .url()
    .optional()
    .describe('Connect to a running browser over CDP instead of launching one. Restart required.'),
  browserPlaywrightServer: z
    .string()
    .regex(/^wss?:\/\/\S+$/, 'must be a ws:// or wss:// address')
    .url()
    .optional()
    .describe(
      'Connect to a Playwright browser server (the ws:// address `launchServer` or `playwright run-server` prints) instead of launching one; it must run the same Playwright version as Toolgate (playwright-core 1.65). A CDP endpoint, when also set, wins. Restart required.',
    ),
  browserHeadless: z
    .boolean()
    .optional()
    .describe('Launch the browser without a window (default true). Restart required.'),
  browserPersistentProfile: z
    .boolean()
    .optional()
    .describe('Keep cookies and storage in a profile in the data dir (default false). Restart required.'),
  webSearchEndpoint: z
    .string()
    .url()
    .optional()
    .describe('Search provider for web_search: GET {endpoint}?q=…&n=… → {results:[{title,url,snippet}]}.'),
  networkBlockPrivateAddresses: z
    .boolean()
    .optional()
    .describe(
      'Keep the network tools on the public web: refuse loopback and private-network addresses (default off; link-local addresses are always refused).',
    ),
  approvalTimeoutSeconds: z
    .number()
    .int()
    .min(5)
    .max(3600)
    .optional()
    .describe('How long a destructive call waits for a decision (default 120). Restart required.'),
  otlpEndpoint: z
    .string()
    .url()
    .optional()
    .describe('OpenTelemetry collector (OTLP/HTTP) to export spans to, e.g. http://127.0.0.1:4318.'),
});
export type Settings = z.infer<typeof Settings>;
export const RESTART_REQUIRED_SETTINGS = [
  'workspaceRoot',
  'adbHost',
  'adbPort',
  'approvalTimeoutSeconds',
  'browserExecutablePath',
  'browserCdpEndpoint',
  'browserPlaywrightServer',
  'browserHeadless',
  'browserPersistentProfile',
] as const;

/** Methods: name → input and output schemas. The preload, the IPC handlers and the HTTP routes are all derived from this map. */
export const contract = {
  info: { input: z.object({}), output: HostInfo },
  listTools: { input: z.object({}), output: z.array(ToolSummary) },
  callTool: {
    input: z.object({ toolId: z.string().min(1), args: z.record(z.string(), z.unknown()).default({}) }),
    output: CallOutcome,
  },
  listSpans: { input: SpanQuery, output: z.array(Span) },
  exportSpans: { input: SpanQuery, output: z.object({ exportedAt: z.number(), spans: z.array(Span) }) },
  usage: { input: z.object({ toolId: z.string().optional() }), output: UsageReport },
  breakers: { input: z.object({}), output: z.array(BreakerView) },
  resetBreaker: { input: z.object({ toolId: z.string().min(1) }), output: z.object({ ok: z.boolean() }) },
  pendingApprovals: { input: z.object({}), output: z.array(PendingApproval) },
  decideApproval: { input: DecideInput, output: z.object({ ok: z.boolean(), message: z.string() }) },
  auditLog: { input: z.object({ limit: z.number().int().min(1).max(5000).default(200) }), output: z.array(AuditEntry) },
  /** The person's approval rules, applied before anyone is asked (deny beats ask beats allow). */
  approvalRules: { input: z.object({}), output: z.array(ApprovalRule) },
  /** Adds a rule written as `tool field=pattern …`; refused with a message when it does not parse. */
  addApprovalRule: {
    input: z.object({ effect: RuleEffect, rule: z.string().min(1).max(2000), note: z.string().max(500).optional() }),
    output: z.object({ ok: z.boolean(), message: z.string(), rule: ApprovalRule.optional() }),
  },
  removeApprovalRule: {
    input: z.object({ id: z.number().int() }),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
  shortcuts: {
    input: z.object({}),
    output: z.object({ defined: z.array(ShortcutDefinition), suggestions: z.array(ShortcutSuggestion) }),
  },
  defineShortcut: { input: ShortcutDefinition, output: CallOutcome },
  devices: { input: z.object({}), output: z.array(DeviceView) },
  /** Starts (on) or stops the live screen of a device; frames arrive as `device-frame` events. */
  deviceScreen: {
    input: z.object({ serial: z.string().min(1), on: z.boolean() }),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
  /** A click on the live screen: ui_tap through the pipeline, traced and gated like an agent's call. */
  deviceTap: {
    input: z.object({ serial: z.string().min(1), x: z.number().int().min(0), y: z.number().int().min(0) }),
    output: CallOutcome,
  },
  /** A drag on the live screen: ui_swipe through the pipeline. */
  deviceSwipe: {
    input: z.object({
      serial: z.string().min(1),
      x1: z.number().int().min(0),
      y1: z.number().int().min(0),
      x2: z.number().int().min(0),
      y2: z.number().int().min(0),
      durationMs: z.number().int().min(1).max(10_000).default(300),
    }),
    output: CallOutcome,
  },
  deviceLogcat: {
    input: z.object({ serial: z.string().min(1), lines: z.number().int().min(1).max(2000).default(200) }),
    output: z.object({ lines: z.array(z.string()) }),
  },
  browser: { input: z.object({}), output: BrowserView },
  /** Starts (on) or stops the mirrored page; frames arrive as `browser-frame` events. */
  browserScreen: { input: z.object({ on: z.boolean() }), output: z.object({ ok: z.boolean(), message: z.string() }) },
  getSettings: { input: z.object({}), output: z.object({ settings: Settings, restartRequired: z.array(z.string()) }) },
  /** Sets the given keys; a key set to null returns to its default. */
  updateSettings: {
    input: z.object({ changes: z.record(z.string(), z.unknown()) }),
    output: z.object({ settings: Settings, restartRequired: z.array(z.string()) }),
  },
  /** The MCP client tokens; each client config the UI copies carries its own. */
  clientTokens: { input: z.object({}), output: z.array(ClientToken) },
  /** A new token for a client, returned this once (the host keeps only its digest). */
  createClientToken: {
    input: z.object({ name: ClientTokenName }),
    output: z.object({ client: ClientToken, token: z.string() }),
  },
  /** Revokes a token at once: its requests get 401 and its open MCP sessions close. */
  revokeClientToken: {
    input: z.object({ id: z.string().min(1) }),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
} as const;

export type Contract = typeof contract;
// Both lists must name the same methods: a method added to one and not the other fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const CONTRACT_AND_NAME_LIST_AGREE: Same<keyof Contract, MethodNameFromList> = true;
export type MethodName = keyof Contract;
export type MethodInput<M extends MethodName> = z.input<Contract[M]['input']>;
export type MethodOutput<M extends MethodName> = z.infer<Contract[M]['output']>;
export const METHOD_NAMES = Object.keys(contract) as MethodName[];

export const HostEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('span'), span: Span, seq: z.number().int().min(1) }),
  z.object({ type: z.literal('breaker'), transition: BreakerTransition }),
  z.object({ type: z.literal('approval-pending'), approval: PendingApproval }),
  z.object({ type: z.literal('approval-decided'), approvalId: z.string(), decision: z.string() }),
  /** A decision was written to the audit log (a person's, a rule's, a withdrawal). */
  z.object({ type: z.literal('approval-audited'), toolId: z.string(), decision: z.string() }),
  z.object({ type: z.literal('tools-changed') }),
  z.object({ type: z.literal('devices-changed') }),
  z.object({ type: z.literal('browser-changed') }),
  z.object({ type: z.literal('device-frame'), serial: z.string(), frame: ScreenFrame }),
  z.object({ type: z.literal('browser-frame'), url: z.string(), frame: ScreenFrame }),
  /** The desktop shell asks the page to open a waiting call's card (its notification was clicked). */
  z.object({ type: z.literal('open-approval'), approvalId: z.string() }),
  /** browser_show: the agent asks the person to look at the mirrored page. */
  z.object({ type: z.literal('browser-show'), url: z.string().optional(), reason: z.string().optional() }),
]);
export type HostEvent = z.infer<typeof HostEvent>;

/** The API the renderer sees: one named async method per contract entry, plus the event stream. */
export type RendererApi = { [M in MethodName]: (input: MethodInput<M>) => Promise<MethodOutput<M>> } & {
  onEvent(listener: (event: HostEvent) => void): () => void;
};
