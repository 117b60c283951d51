/**
 * The contract between the host and the renderer. Every request, response and event that crosses
 * IPC (Electron) or HTTP + WebSocket (headless) is declared here once as a zod schema; both sides
 * derive their types from it and the host parses every argument with it. Imports only zod.
 *
 * Transport: a method `m` is `POST /api/rpc/m` with the JSON input as body (headless) or the IPC
 * channel `toolgate:m` (Electron). Events arrive on the WebSocket `/api/events` or the IPC channel
 * `toolgate:event`. Every method is the person's: over HTTP it needs the UI session and its CSRF
 * header (ui-session.ts); an MCP client's token is refused there. A device's live screen has a
 * channel of its own per viewer (screen-wire.ts): the WebSocket `/api/screen`, or IPC.
 */
import { z } from 'zod';
import type { MethodNameFromList } from './method-names';
import type { OpenScreen } from './screen-wire';

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

/** Calls by what their end means (shared/call-classes.ts). */
export const ClassCounts = z.object({
  succeeded: z.number(),
  toolFailed: z.number(),
  callerMistake: z.number(),
  denied: z.number(),
  unanswered: z.number(),
  policyRefused: z.number(),
  refused: z.number(),
  cancelled: z.number(),
});
export type ClassCounts = z.infer<typeof ClassCounts>;

export const UsageStats = z.object({
  toolId: z.string(),
  /** Requests made: a retried call is one call. */
  calls: z.number(),
  /** Times the tool ran (every attempt, retries included; refused calls never ran). */
  attempts: z.number(),
  /** Attempts beyond each call's first. */
  retries: z.number(),
  /** Calls by how they ended. */
  outcomes: ClassCounts,
  /** Run time of the attempts that ran (refusals are not run time). */
  latencyMs: z.object({
    min: z.number(),
    mean: z.number(),
    p50: z.number(),
    p95: z.number(),
    p99: z.number(),
    max: z.number(),
  }),
  /** Histogram of attempts' run time: upper bound in ms (Infinity as null) and count. */
  buckets: z.array(z.object({ le: z.number().nullable(), count: z.number() })),
  /** Calls per minute by the minute they started, and how they ended, oldest first. */
  perMinute: z.array(ClassCounts.extend({ minute: z.number(), calls: z.number() })),
  /** The last call the tool itself failed (toolFailed), with its cleaned error text. */
  lastError: z.object({ code: ErrorCode, message: z.string(), at: z.number(), callId: z.string() }).optional(),
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
export const CallClassName = z.enum([
  'succeeded',
  'toolFailed',
  'callerMistake',
  'denied',
  'unanswered',
  'policyRefused',
  'refused',
  'cancelled',
]);

/** A breaker of the call's tool around the time of the call. */
export const BreakerAtCall = z.object({
  key: z.string(),
  target: z.string().optional(),
  /** This is the call's own breaker (its target is known), not just one of its tool's. */
  exact: z.boolean(),
  atStart: BreakerStateName,
  /** Right after the call, its own outcome included (five failures in a row open it). */
  atEnd: BreakerStateName,
  /** Its transitions from an hour before the call to a minute after it. */
  transitions: z.array(BreakerTransition),
});
export type BreakerAtCall = z.infer<typeof BreakerAtCall>;

/** What the host remembers of a call while it runs: kept in memory only, never written or exported. */
export const RememberedCall = z.object({
  args: z.unknown(),
  /** Why the arguments were not kept although the call is remembered. */
  argsDropped: z.enum(['too-large', 'not-json']).optional(),
  sessionId: z.string(),
  requester: Requester,
  at: z.number(),
  replayOf: z.string().optional(),
  /** Calls that ran this one again. */
  replays: z.array(z.string()),
});
export type RememberedCall = z.infer<typeof RememberedCall>;

/**
 * One call's story: its attempts, the calls it started, its breaker and approval, and (while remembered) its arguments.
 */
export const CallDetail = z.object({
  callId: z.string(),
  spans: z.array(Span),
  /** Spans of the calls this one started (batch or shortcut steps). */
  nested: z.array(Span),
  callClass: CallClassName.optional(),
  /** The hint the caller read (while the host remembers the call), else the default hint of its code. */
  hint: z.object({ text: z.string(), source: z.enum(['call', 'default']) }).optional(),
  breakers: z.array(BreakerAtCall),
  /** Approval decisions about this call (the tool's, its shell commands'), oldest first. */
  approvals: z.array(AuditEntry),
  memory: RememberedCall.optional(),
});
export type CallDetail = z.infer<typeof CallDetail>;

export const ReplayResult = z.object({ ok: z.boolean(), message: z.string(), outcome: CallOutcome.optional() });
export type ReplayResult = z.infer<typeof ReplayResult>;

/** A bug report of one call, in one file: everything but argument text. */
export const CallReport = z.object({
  format: z.literal('toolgate-call-report/1'),
  exportedAt: z.number(),
  note: z.string(),
  host: z.object({
    version: z.string(),
    mode: z.string(),
    startedAt: z.number(),
    node: z.string(),
    platform: z.string(),
    arch: z.string(),
    electron: z.string().optional(),
    playwright: z.string().optional(),
  }),
  tool: z.object({
    id: z.string(),
    registered: z.boolean(),
    title: z.string().optional(),
    category: z.string().optional(),
    risk: Risk.optional(),
    annotations: Annotations.optional(),
    selfGated: z.boolean().optional(),
    runPolicy: z.string().optional(),
    /** A digest of the tool's input schema: it changes when the tool's contract does. */
    schemaDigest: z.string().optional(),
  }),
  call: z.object({
    callId: z.string(),
    toolId: z.string(),
    sessionId: z.string().optional(),
    requesterKind: z.string().optional(),
    parentCallId: z.string().optional(),
    startedAt: z.number().optional(),
    endedAt: z.number().optional(),
    attempts: z.number(),
    callClass: CallClassName.optional(),
    replayOf: z.string().optional(),
  }),
  spans: z.array(Span),
  nested: z.array(Span),
  breakers: z.array(BreakerAtCall),
  approvals: z.array(AuditEntry),
  environment: z.object({
    recordedAt: z.number().optional(),
    readings: z.array(z.object({ key: z.string(), value: z.unknown(), ageMs: z.number() })),
    note: z.string().optional(),
  }),
});
export type CallReport = z.infer<typeof CallReport>;

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
  /**
   * Why it is suggested: how often its calls all succeeded in this order, out of how often they were made in it, and
   * when.
   */
  evidence: z.object({
    count: z.number(),
    seen: z.number(),
    successRate: z.number(),
    lastSeen: z.number(),
    sessions: z.number(),
  }),
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
  /** The toolsets this client's token allows. */
  toolsets: z.array(z.string()),
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
      'Connect to a Playwright browser server (the ws:// address `launchServer` or `playwright run-server` prints) ' +
        'instead of launching one; it must run the same Playwright version as Toolgate (playwright-core 1.65). A CDP ' +
        'endpoint, when also set, wins. Restart required.',
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
      'Keep the network tools on the public web: refuse loopback and private-network addresses (default off; ' +
        'link-local addresses are always refused).',
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
  skillSourceFolder: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe('A workspace folder of skill folders and archives that skill_search also searches (e.g. "skills").'),
  skillIndexUrl: z
    .string()
    .regex(/^https:\/\//, 'must be an https:// address')
    .url()
    .optional()
    .describe('An https index of skills skill_search also searches: {"skills":[{"name","description","url"}]}.'),
  githubApiUrl: z
    .string()
    .regex(/^https?:\/\//, 'must be an http:// or https:// address')
    .url()
    .optional()
    .describe(
      'The GitHub API the GitHub tools call (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3).',
    ),
  terminalHostEnabled: z
    .boolean()
    .optional()
    .describe(
      'Let agents open terminals on this machine (terminal.create backend "host"): a shell as your user, where ' +
        'every key that could start a command and every command that changes or reads files still asks you first. ' +
        'Default off; turning it off closes the open ones.',
    ),
  terminalWorkspaces: z
    .string()
    .min(1)
    .optional()
    .describe(
      'More folders a terminal may start in, besides the workspace (absolute paths separated by ":"). A sandbox ' +
        'terminal sees only its folder, at /workspace. A folder holding the data dir is never used.',
    ),
  terminalUbuntuSource: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Where terminal.ubuntu_install gets Ubuntu for the sandbox: an Ubuntu mirror (e.g. ' +
        'http://archive.ubuntu.com/ubuntu; needs the ubuntu-keyring ' +
        'package) or the absolute path of a rootfs tarball.',
    ),
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

export const SkillToolView = z.object({
  id: z.string(),
  /** The name MCP clients call it by (skill_<skill>_<tool>). */
  callAs: z.string(),
  kind: z.enum(['steps', 'script']),
  description: z.string(),
  risk: Risk.optional(),
  state: z.enum(['registered', 'disabled', 'unavailable']),
  reason: z.string().optional(),
});
export const SkillView = z.object({
  name: z.string(),
  description: z.string(),
  license: z.string().optional(),
  state: z.enum(['enabled', 'disabled', 'broken']),
  problem: z.string().optional(),
  origin: z.enum(['installed', 'created', 'bundled']),
  source: z.string(),
  installedAt: z.number(),
  files: z.number().int(),
  bytes: z.number().int(),
  tools: z.array(SkillToolView),
  /** SKILL.md as installed. */
  skillMd: z.string(),
});
export type SkillView = z.infer<typeof SkillView>;

/** Whether GitHub is set up: never the token itself, which is write-only. */
export const GithubStatus = z.object({
  tokenSet: z.boolean(),
  /** env: TOOLGATE_GITHUB_TOKEN (it wins over a stored one); stored: set here. */
  source: z.enum(['env', 'stored', 'none']),
  storage: z.string(),
  /**
   * Said plainly when a token set here is not kept in the OS keychain although the app runs on a desktop (no keyring).
   */
  storageWarning: z.string().optional(),
  apiUrl: z.string(),
  /** The seven GitHub tools are in the catalog. */
  registered: z.boolean(),
});
export type GithubStatus = z.infer<typeof GithubStatus>;

/**
 * Methods: name → input and output schemas. The preload, the IPC handlers and the HTTP routes are all derived from this
 * map.
 */
export const contract = {
  info: { input: z.object({}), output: HostInfo },
  listTools: { input: z.object({}), output: z.array(ToolSummary) },
  /** The toolsets, their cost in a tools/list answer, and which clients have each. */
  listToolsets: { input: z.object({}), output: z.array(ToolsetSummary) },
  callTool: {
    input: z.object({ toolId: z.string().min(1), args: z.record(z.string(), z.unknown()).default({}) }),
    output: CallOutcome,
  },
  listSpans: { input: SpanQuery, output: z.array(Span) },
  exportSpans: { input: SpanQuery, output: z.object({ exportedAt: z.number(), spans: z.array(Span) }) },
  /** One call's whole story for the Traces detail; its arguments only while the host remembers them. */
  callDetail: { input: z.object({ callId: z.string().min(1) }), output: CallDetail },
  /** Runs a remembered call again with the same arguments, through the pipeline, as a replay by the person. */
  replayCall: { input: z.object({ callId: z.string().min(1) }), output: ReplayResult },
  /** A bug report of one call as one JSON document, without argument text. */
  callReport: { input: z.object({ callId: z.string().min(1) }), output: CallReport },
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
    output: z.object({
      defined: z.array(ShortcutDefinition),
      suggestions: z.array(ShortcutSuggestion),
      /**
       * The telemetry keys a precondition may name, with what each means, and the ones the host has a reading for now.
       */
      preconditionKeys: z.array(z.object({ key: z.string(), meaning: z.string(), current: z.array(z.string()) })),
    }),
  },
  defineShortcut: { input: ShortcutDefinition, output: CallOutcome },
  devices: { input: z.object({}), output: z.array(DeviceView) },
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
  /** Every open terminal, whoever opened it. */
  terminals: { input: z.object({}), output: z.array(TerminalView) },
  /** What a new viewer replays: the terminal's newest output (up to 256 KB) and the byte offset it ends at. */
  terminalScreen: {
    input: z.object({ id: z.string().min(1) }),
    output: z.object({
      data: z.string(),
      from: z.number().int(),
      to: z.number().int(),
      runs: z.array(TerminalRunMark),
    }),
  },
  /** Take control (the person types, the agent waits) or hand it back. */
  terminalControl: {
    input: z.object({ id: z.string().min(1), on: z.boolean() }),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
  /** The person's keystrokes while in control: terminal.write through the pipeline, traced as theirs. */
  terminalInput: {
    input: z.object({ id: z.string().min(1), data: z.string().min(1).max(16_384) }),
    output: CallOutcome,
  },
  /** The MCP client tokens; each client config the UI copies carries its own. */
  clientTokens: { input: z.object({}), output: z.array(ClientToken) },
  /**
   * A new token for a client, allowed the given toolsets (the default profile without them), returned this once (the
   * host keeps only its digest).
   */
  createClientToken: {
    input: z.object({ name: ClientTokenName, toolsets: ToolsetNames.optional() }),
    output: z.object({ client: ClientToken, token: z.string() }),
  },
  /** Changes the toolsets a client may use; its open sessions lose those removed at once. */
  setClientToolsets: {
    input: z.object({ id: z.string().min(1), toolsets: ToolsetNames }),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
  /** Revokes a token at once: its requests get 401 and its open MCP sessions close. */
  revokeClientToken: {
    input: z.object({ id: z.string().min(1) }),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
  /**
   * The installed skills with their tools. Installing and removing go through skill_install / skill_uninstall
   * (approval).
   */
  skills: { input: z.object({}), output: z.array(SkillView) },
  /** Enables or disables an installed skill: its tools, prompt and resource come and go with it. */
  setSkillEnabled: {
    input: z.object({ name: z.string().min(1).max(64), enabled: z.boolean() }),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
  githubStatus: { input: z.object({}), output: GithubStatus },
  /** Stores a GitHub token (registering the GitHub tools), or removes it with null. The token is never returned. */
  setGithubToken: {
    input: z.object({ token: z.string().trim().min(1).max(255).nullable() }),
    output: GithubStatus,
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
  /** A skill was installed, removed, enabled or disabled. */
  z.object({ type: z.literal('skills-changed') }),
  z.object({ type: z.literal('devices-changed') }),
  z.object({ type: z.literal('browser-changed') }),
  z.object({ type: z.literal('browser-frame'), url: z.string(), frame: ScreenFrame }),
  /** The desktop shell asks the page to open a waiting call's card (its notification was clicked). */
  z.object({ type: z.literal('open-approval'), approvalId: z.string() }),
  /**
   * A terminal's output: the bytes from `from` to `to` of its output, as text; a gap means: fetch terminalScreen again.
   */
  z.object({
    type: z.literal('terminal-output'),
    id: z.string(),
    from: z.number().int(),
    to: z.number().int(),
    data: z.string(),
    /** The agent's runs whose line starts in these bytes. */
    runs: z.array(TerminalRunMark),
  }),
  /** A terminal opened, closed, ended, changed hands or ran a command: refetch the list. */
  z.object({ type: z.literal('terminals-changed') }),
  /** browser_show: the agent asks the person to look at the mirrored page. */
  z.object({ type: z.literal('browser-show'), url: z.string().optional(), reason: z.string().optional() }),
]);
export type HostEvent = z.infer<typeof HostEvent>;

/** The API the renderer sees: one named async method per contract entry, the event stream, and live screens. */
export type RendererApi = { [M in MethodName]: (input: MethodInput<M>) => Promise<MethodOutput<M>> } & {
  onEvent(listener: (event: HostEvent) => void): () => void;
  openScreen: OpenScreen;
};
