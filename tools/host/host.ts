/**
 * The host: one process that owns the registry, the v3 pipeline, the SQLite store, the approval
 * queue, the MCP endpoint and the HTTP/WebSocket server. Electron's main process and the headless
 * `serve` command both start it the same way.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { HostInfo } from '../../shared/contract';
import { type Pipeline, type RunPolicyOverrides, systemClock } from '../core/pipeline';
import { observedExecutor } from '../core/call-observer';
import { ToolRegistry } from '../core/registry';
import type { ToolExecutor } from '../core/executor';
import { loadShortcuts } from '../orchestration';
import type { TerminalOptions } from '../terminal';
import { ApprovalQueue } from './approval-queue';
import { BreakerFeed } from './breaker-feed';
import { CallMemory, rememberingObserver } from './call-memory';
import { CallStories } from './call-story';
import { composeHostPipeline } from './compose-pipeline';
import { HostTelemetry } from './host-telemetry';
import { ClientTokens } from './auth/client-tokens';
import { newLinkKey } from './auth/ui-link';
import { UiSessions } from './auth/ui-sessions';
import { prepareDataDir } from './data-dir';
import type { GithubTokenStore } from '../github';
import { type FamilyHandles, registerFamilies } from './families';
import { writeHostFile } from './host-file';
import { createHostApi } from './host-api';
import { HostEvents } from './host-events';
import { HostSettings } from './host-settings';
import { OtlpExporter } from './otlp-exporter';
import { inToolApprover } from './command-approver';
import { SelfGuard } from '../common/self-guard';
import { type HostLog, failureLogLine, openHostLog } from './host-log';
import type { HostApiHandlers } from './http/rpc-dispatch';
import { HostServer } from './http/host-server';
import type { PeerUidLookup } from './http/peer-uid';
import type { ScreenWatcher } from './surfaces';
import type { ScreenHubOptions } from '../devices';
import type { VirtualDemoOptions } from '../devices/virtual-demo';
import { McpEndpoint } from './mcp/mcp-endpoint';
import { McpSocketServer, mcpSocketPath } from './mcp/mcp-socket';
import { ApprovalRuleStore } from './store/approval-rule-store';
import { AuditStore } from './store/audit-store';
import { BreakerStore } from './store/breaker-store';
import { ClientTokenStore } from './store/client-token-store';
import { type Db, openDatabase } from './store/database';
import { SettingsStore } from './store/settings-store';
import { SqliteShortcutStore } from './store/shortcut-store';
import { SpanStore, recentSpans } from './store/span-store';
import { UiSessionStore } from './store/ui-session-store';
import { SessionToolsets } from './toolsets/session-toolsets';
import { loadOrCreateToken } from './token';
import { HOST_VERSION } from './version';
import { closeCpuPool, warmCpuPool } from '../common/cpu-pool';
import { onListenerError } from '../core/disposable';
import type { ProfileName } from '../devices/virtual/profiles';

export interface HostOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  /** Attach the virtual phone: true for the default profile, or a profile's name. */
  virtualDevice?: boolean | ProfileName;
  /** The demo phone's screen size and cable (`serve --screen WxH --link usb2|wifi`). */
  virtualDeviceOptions?: Omit<VirtualDemoOptions, 'profile'>;
  /** Live screens: screenrecord's time limit, viewer windows (tests shorten the limit). */
  screens?: ScreenHubOptions;
  /** How long a destructive call waits for a person; default 120 s. */
  approvalTimeoutMs?: number;
  /**
   * Start the CPU worker pool's first thread with the host, in the background, so the first
   * `calculate` does not pay the worker's cold start. `serve` and the desktop app do; tests leave
   * it off so as not to start a thread per test host.
   */
  warmCpuWorker?: boolean;
  /** How often a call waiting for a person tells its caller so (MCP progress); default 10 s. */
  approvalProgressIntervalMs?: number;
  /** Changes to run policy presets' values (tests scale timeouts down). */
  runPolicies?: RunPolicyOverrides;
  rendererDir?: string;
  /** Who owns a connection's client end; default: the kernel's socket table (tests stand in another account). */
  peerUid?: PeerUidLookup;
  mode?: HostInfo['mode'];
  env?: NodeJS.ProcessEnv;
  /** Spans kept in the database. */
  spanRetention?: number;
  /** An MCP session with no request for this long is closed; default 30 min. */
  mcpIdleSessionMs?: number;
  /** Open MCP sessions allowed per client token and in all; default 64 and 256. */
  mcpMaxSessionsPerClient?: number;
  mcpMaxSessions?: number;
  /** A request not fully received (headers and body) within this time is ended; default 60 s. */
  httpRequestTimeoutMs?: number;
  /** Open HTTP connections at most; default 2,048. */
  httpMaxConnections?: number;
  /** adb server port, overriding the setting (tests run a private adb server). */
  adbPort?: number;
  /** Per-tool calls per minute, overriding the run policy's quota (labs that drive one tool hard). */
  rateLimitPerMinute?: Readonly<Record<string, number>>;
  /**
   * Where a GitHub token set in the UI is kept (the desktop shell: safeStorage); default a 0600 file
   * in the data dir.
   */
  githubTokens?: GithubTokenStore;
  /** The terminal family's limits and programs (tests shorten the idle time, name another bubblewrap). */
  terminal?: TerminalOptions;
}

export interface Host {
  readonly address: { port: number; ui: string; mcp: string };
  readonly dataDir: string;
  /** The data dir's token: the MCP client named "default". */
  readonly token: string;
  /** Where the MCP bearer token is kept (`DATA/token`), or undefined when TOOLGATE_TOKEN gave it. */
  readonly tokenFile: string | undefined;
  /** MCP client tokens: which client a bearer token names, and the person's list of them. */
  readonly clientTokens: ClientTokens;
  /** A fresh one-time link that opens a UI session (what `serve` prints and `toolgate ui-link` makes). */
  uiLink(): string;
  readonly registry: ToolRegistry;
  /** The pipeline's executor as calls enter the host: their arguments are kept in memory (`memory`). */
  readonly executor: ToolExecutor;
  /** Recent calls' arguments, in memory only (never written), for the Traces detail and replay. */
  readonly memory: CallMemory;
  /** Environment telemetry: what the device family writes and the browser reports. */
  readonly telemetry: HostTelemetry;
  readonly pipeline: Pipeline;
  readonly approvals: ApprovalQueue;
  readonly api: HostApiHandlers;
  readonly events: HostEvents;
  /** Device live screens, for the Electron bridge (the HTTP server serves them at /api/screen). */
  readonly screens: ScreenWatcher | undefined;
  readonly db: Db;
  readonly log: HostLog;
  close(): Promise<void>;
}

const BREAKER_SNAPSHOT_KEY = 'breakers.snapshot';
/** bin/toolgate.cjs, from tools/host (tsx) or out/main (the Electron bundle): both sit two levels below the root. */
const STDIO_BRIDGE_BIN = resolve(__dirname, '..', '..', 'bin', 'toolgate.cjs');

export async function startHost(options: HostOptions): Promise<Host> {
  const layout = prepareDataDir(options.dataDir);
  const log = openHostLog(layout.logs);
  onListenerError((e) => log(`an event listener failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));
  const token = loadOrCreateToken(layout.token, options.env);
  const db = openDatabase(layout.database);
  const spans = new SpanStore(db, options.spanRetention);
  const audit = new AuditStore(db);
  const approvalRules = new ApprovalRuleStore(db);
  const breakerStore = new BreakerStore(db);
  const settings = new SettingsStore(db);
  const hostSettings = new HostSettings(settings);
  const userSettings = hostSettings.current();
  const approvalTimeoutMs = options.approvalTimeoutMs ?? (userSettings.approvalTimeoutSeconds ?? 120) * 1000;
  const workspaceRoot = userSettings.workspaceRoot ?? layout.workspace;
  mkdirSync(workspaceRoot, { recursive: true });
  const shortcutStore = new SqliteShortcutStore<import('../orchestration').ShortcutDefinition>(db);
  const startedAt = Date.now();
  const clientTokens = new ClientTokens(new ClientTokenStore(db), token);
  const linkKey = newLinkKey();
  const uiSessions = new UiSessions(new UiSessionStore(db), { linkKey });

  const registry = new ToolRegistry();
  const sessionToolsets = new SessionToolsets(registry);
  const approvals = new ApprovalQueue(approvalTimeoutMs);
  const telemetry = new HostTelemetry(systemClock);
  const pipeline = composeHostPipeline(registry, {
    scope: sessionToolsets,
    telemetry,
    decide: approvals.decide,
    approvalTimeoutMs,
    approvalRules: () => approvalRules.list(),
    audit: { record: (e) => void audit.append({ ...e, argsDigest: JSON.stringify(e.argsDigest) }) },
    ...(options.approvalProgressIntervalMs ? { approvalProgressIntervalMs: options.approvalProgressIntervalMs } : {}),
    ...(options.rateLimitPerMinute ? { rateLimit: { perMinute: options.rateLimitPerMinute } } : {}),
    ...(options.runPolicies ? { policies: options.runPolicies } : {}),
  });
  const saved = settings.get<unknown>(BREAKER_SNAPSHOT_KEY);
  if (saved !== undefined && pipeline.breakers) {
    // Restoring reads only what a breaker needs; the row is rewritten at once so no older text stays in it.
    pipeline.breakers.restore(saved);
    settings.set(BREAKER_SNAPSHOT_KEY, pipeline.breakers.snapshot());
  }
  pipeline.events.onSpan((span) => {
    try {
      spans.insert(span);
    } catch (e) {
      log(`span not stored: ${(e as Error).message}`);
    }
  });
  // After the restore: the feed learns the restored open periods, and a restore is no new transition.
  const breakerFeed = pipeline.breakers ? new BreakerFeed(pipeline.breakers) : undefined;
  breakerFeed?.on((t) => breakerStore.append(t));
  pipeline.events.onSpan((span) => span.outcome === 'error' && log(failureLogLine(span)));
  const otlp = new OtlpExporter({
    endpoint: () => hostSettings.get('otlpEndpoint'),
    serviceVersion: HOST_VERSION,
    log,
  });
  pipeline.events.onSpan((span) => otlp.add(span));

  // Toolgate itself, which no tool may reach: the data dir now, the port once the server listens
  // (below; no tool can be called before that, as calls arrive through the server).
  const self = new SelfGuard({ dataDir: layout.root });
  // Before anything that can emit: families fire events while they start (devices found, a browser launched).
  const events = new HostEvents(
    pipeline,
    approvals,
    registry,
    breakerFeed ? (listener) => breakerFeed.on(listener) : undefined,
  );
  const memory = new CallMemory();
  const observer = rememberingObserver(memory, {
    known: (toolId) => registry.has(toolId),
    environment: () => telemetry.entries(),
  });
  const executor = observedExecutor(pipeline.executor, observer);
  const freshTelemetry = (key: string) => telemetry.fresh(key);
  // Asked from inside a running tool: the gate's queue, rules and audit, the run timeout held.
  const approveFromTool = inToolApprover(pipeline.approval);
  const families: FamilyHandles = await registerFamilies({
    registry,
    sessionToolsets,
    db,
    workspaceRoot,
    settings: hostSettings,
    emit: events.emit.bind(events),
    environment: pipeline.environment,
    approveCommand: approveFromTool,
    askPerson: approveFromTool,
    approve: approveFromTool,
    self,
    ...(options.terminal ? { terminal: options.terminal } : {}),
    dataDir: layout.root,
    shortcutStore,
    traceSpans: () => recentSpans(spans),
    telemetry,
    shortcutTelemetry: freshTelemetry,
    observer,
    sameArgument: (a, b, field) => memory.sameArgument(a, b, field),
    virtualDevice: options.virtualDevice ?? false,
    ...(options.virtualDeviceOptions ? { virtualDeviceOptions: options.virtualDeviceOptions } : {}),
    ...(options.screens ? { screens: options.screens } : {}),
    ...(options.adbPort !== undefined ? { adbPort: options.adbPort } : {}),
    log,
    env: options.env ?? process.env,
    ...(options.githubTokens ? { githubTokens: options.githubTokens } : {}),
  });
  // Loaded with the reader and observer shortcut_define gives new shortcuts: preconditions hold after a restart.
  const loaded = loadShortcuts(shortcutStore, registry, { telemetry: freshTelemetry, observer });
  for (const s of loaded.skipped) log(`shortcut ${s.id} not loaded: ${s.reason}`);

  const mcp = new McpEndpoint({
    registry,
    executor,
    version: HOST_VERSION,
    toolsets: sessionToolsets,
    onSessionClosed: (label) => pipeline.approval?.permissions.endSession(label),
    content: families.skills.content,
    ...(options.mcpIdleSessionMs ? { idleSessionMs: options.mcpIdleSessionMs } : {}),
    caps: {
      ...(options.mcpMaxSessionsPerClient ? { perClient: options.mcpMaxSessionsPerClient } : {}),
      ...(options.mcpMaxSessions ? { total: options.mcpMaxSessions } : {}),
    },
  });
  const revocations = clientTokens.onRevoked((client) => {
    const closed = mcp.closeClient(client.id);
    log(`client token '${client.name}' revoked; ${closed} open session(s) closed`);
  });
  const toolsetEdits = clientTokens.onToolsetsChanged((client) =>
    sessionToolsets.updateClient(client.id, client.toolsets),
  );
  let server: HostServer | undefined;
  const info = (): HostInfo => ({
    version: HOST_VERSION,
    mode: options.mode ?? 'headless',
    startedAt,
    uiUrl: server?.address.ui ?? '',
    mcpUrl: server?.address.mcp ?? '',
    dataDir: layout.root,
    stdioBridge: { command: 'node', args: [STDIO_BRIDGE_BIN, 'mcp-stdio', '--data-dir', layout.root] },
    toolCount: registry.size,
    devices: families.devices(),
    browser: families.browser(),
  });
  const api = createHostApi({
    recentSpans: () => recentSpans(spans),
    settings: hostSettings,
    surfaces: families,
    emit: events.emit.bind(events),
    info,
    registry,
    executor,
    pipeline,
    approvals,
    spans,
    audit,
    approvalRules,
    breakerStore,
    memory,
    stories: new CallStories({
      spans,
      audit,
      breakerStore,
      breakers: pipeline.breakers,
      registry,
      memory,
      info: () => info(),
    }),
    telemetryKeys: () => telemetry.entries().map((e) => e.key),
    shortcuts: shortcutStore,
    spanSeq: () => events.spanSeq(),
    clientTokens,
    openSessions: (clientId) => mcp.sessionsOf(clientId),
  });
  server = new HostServer({
    clients: clientTokens,
    sessions: uiSessions,
    mcp,
    api,
    events,
    ...(families.deviceSurface ? { screens: families.deviceSurface } : {}),
    rendererDir: resolve(options.rendererDir ?? join(__dirname, '..', '..', 'out', 'renderer')),
    log,
    ...(options.peerUid ? { peerUid: options.peerUid } : {}),
    ...(options.httpRequestTimeoutMs ? { requestTimeoutMs: options.httpRequestTimeoutMs } : {}),
    ...(options.httpMaxConnections ? { maxConnections: options.httpMaxConnections } : {}),
  });
  await server.listen(options.port);
  self.addPort(server.address.port);
  // Gone on close and on any exit that runs exit handlers; a kill -9 leaves it, and readers check its pid.
  const forgetHostFile = writeHostFile(layout.root, server.address, linkKey);
  process.on('exit', forgetHostFile);
  // The stdio bridge's way in (mcp/mcp-socket.ts); without it the bridge uses HTTP.
  const mcpSocket = new McpSocketServer(mcpSocketPath(layout.root), mcp, clientTokens, log);
  await mcpSocket.listen();
  log(`Toolgate ${HOST_VERSION} listening on ${server.address.ui} (${registry.size} tools, data dir ${layout.root})`);
  if (options.warmCpuWorker) warmCpuPool();

  let closed: Promise<void> | undefined;
  const listening = server;
  return {
    address: listening.address,
    dataDir: layout.root,
    token,
    tokenFile: (options.env ?? process.env).TOOLGATE_TOKEN?.trim() ? undefined : layout.token,
    clientTokens,
    uiLink: () => uiSessions.link(listening.address.ui),
    registry,
    executor,
    memory,
    telemetry,
    pipeline,
    approvals,
    api,
    events,
    screens: families.deviceSurface,
    db,
    log,
    close: () =>
      (closed ??= (async () => {
        process.off('exit', forgetHostFile);
        forgetHostFile();
        const denied = approvals.denyAll('Toolgate is shutting down');
        if (denied) log(`denied ${denied} pending approval(s) at shutdown`);
        revocations.dispose();
        toolsetEdits.dispose();
        await mcpSocket.close();
        await mcp.close();
        await listening.close();
        await families.close();
        await otlp.close();
        await closeCpuPool();
        events.dispose();
        breakerFeed?.dispose();
        if (pipeline.breakers) settings.set(BREAKER_SNAPSHOT_KEY, pipeline.breakers.snapshot());
        spans.flush();
        db.close();
        log('stopped');
        await log.close();
      })()),
  };
}
