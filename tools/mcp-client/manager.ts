/**
 * McpClientManager: the connected MCP servers, keyed by name, and their tools registered in the
 * ToolRegistry as `mcp.<server>.<tool>` proxies. Connect lists and registers the tools (and
 * re-lists on `tools/list_changed`); disconnect closes the session and unregisters them. A server
 * that dies keeps its proxies, which answer with a hint to reconnect, until it is reconnected or
 * disconnected.
 */
import { type Disposable, Emitter } from '../core/disposable';
import type { ToolRegistry } from '../core/registry';
import { ToolCallError, type ToolResult, failure } from '../core/result';
import { suggestToolIds } from '../core/suggester';
import type { ToolContext } from '../core/tool';
import type { SelfGuard } from '../common/self-guard';
import { destinationPolicy, guardedFetch } from '../network/address-guard';
import { connectGuardedFetch } from '../network/guarded-connect';
import type { FetchLike } from '../network/http-fetch';
import { scrubValue } from '../network/secrets';
import { McpConnection, type RemoteTool } from './connection';
import { connectFailure } from './connect-errors';
import { type McpLaunchApprover, checkLaunch } from './launch-approval';
import { proxyTool } from './proxy-tool';
import { fromRemoteError, fromRemoteResult, reconnectHint } from './remote-results';
import { type McpServerSpec, describeTarget, sameSpec, specSecrets } from './server-spec';
import { assignProxyIds, idSegment } from './tool-ids';
import { MCP_CLIENT_TOOLSET } from './toolset';

export interface McpClientManagerOptions {
  /** Consulted before any server is started or contacted, in addition to the pipeline's gate. */
  approve?: McpLaunchApprover;
  /** For the MCP handshake and tool listing. Default 30 s. */
  connectTimeoutMs?: number;
  /** For one remote tool call; progress notifications restart it. Default 120 s. */
  callTimeoutMs?: number;
  /**
   * What HTTP servers are reached with. Default: a fetch that never connects to link-local
   * addresses (cloud metadata), checked before the request and again at connect time, like the
   * network tools, and never to Toolgate itself (`self`); the rest of loopback stays allowed, where
   * most HTTP MCP servers live.
   */
  httpFetch?: FetchLike;
  /** Toolgate itself, which the default fetch never connects to. */
  self?: SelfGuard;
}

export interface McpToolSummary {
  id: string;
  name: string;
  title: string;
  description: string;
  readOnly: boolean;
  destructive: boolean;
}

export interface McpServerSummary {
  name: string;
  transport: 'stdio' | 'http';
  /** The command line (stdio) or URL (http). */
  target: string;
  status: 'connected' | 'closed';
  error?: string;
  server?: { name: string; version: string };
  /** Names only: env and header values may be credentials. */
  envKeys: string[];
  headerNames: string[];
  tools: McpToolSummary[];
}

interface Entry {
  spec: McpServerSpec;
  connection: McpConnection;
  /** remote name → tool as listed and its proxy id */
  tools: Map<string, { id: string; remote: RemoteTool }>;
  registrations: Map<string, Disposable>;
}

export class McpClientManager {
  private readonly entries = new Map<string, Entry>();
  private readonly connecting = new Set<string>();
  private readonly changes = new Emitter<void>();
  private readonly connectTimeoutMs: number;
  private readonly callTimeoutMs: number;
  private readonly httpFetch: FetchLike;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly options: McpClientManagerOptions = {},
  ) {
    this.connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
    this.callTimeoutMs = options.callTimeoutMs ?? 120_000;
    const policy = destinationPolicy(() => false, options.self);
    this.httpFetch = options.httpFetch ?? guardedFetch(connectGuardedFetch(policy), policy);
  }

  /** Connects (or returns the live session for the identical spec); throws ToolCallError on failure. */
  async connect(
    spec: McpServerSpec,
    opts: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<McpServerSummary> {
    const key = idSegment(spec.name);
    const existing = this.entries.get(key);
    if (existing?.connection.status === 'connected') {
      if (sameSpec(existing.spec, spec)) return this.summary(existing);
      throw new ToolCallError(
        'INVALID_ARGUMENT',
        `Invalid arguments: an MCP server named '${existing.spec.name}' is already connected ` +
          `to ${describeTarget(existing.spec)}.`,
        {
          hint: 'Choose another name, or ask the user to disconnect that server first.',
          data: { fields: ['name'] },
        },
      );
    }
    if (this.connecting.has(key)) {
      throw new ToolCallError('EXECUTION_FAILED', `The MCP server '${spec.name}' is being connected right now.`, {
        hint: 'Wait for that connection to finish, then call mcp_list.',
      });
    }
    this.connecting.add(key);
    try {
      if (existing) await this.disconnect(existing.spec.name);
      await checkLaunch(this.options.approve, spec);
      const entry = await this.open(spec, key, opts.signal, opts.timeoutMs ?? this.connectTimeoutMs);
      this.changes.emit();
      return this.summary(entry);
    } finally {
      this.connecting.delete(key);
    }
  }

  async disconnect(name: string): Promise<boolean> {
    const key = idSegment(name);
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    for (const registration of entry.registrations.values()) registration.dispose();
    await entry.connection.close();
    this.changes.emit();
    return true;
  }

  list(): McpServerSummary[] {
    return [...this.entries.values()].map((e) => this.summary(e)).sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): McpServerSummary | undefined {
    const entry = this.entries.get(idSegment(name));
    return entry ? this.summary(entry) : undefined;
  }

  /** The proxy id of a remote tool, found by its remote name, its id segment or its full id. */
  resolveTool(server: string, tool: string): { id: string } | ToolResult {
    const entry = this.entries.get(idSegment(server));
    if (!entry) {
      const names = [...this.entries.values()].map((e) => e.spec.name);
      return failure(
        'NOT_FOUND',
        `No MCP server named '${server}' is connected.${names.length ? ` Connected: ${names.join(', ')}.` : ''}`,
        {
          hint: names.length
            ? 'Use one of the connected servers, or connect this one with mcp_connect.'
            : 'Connect the server with mcp_connect first.',
          data: { servers: names },
        },
      );
    }
    const tools = [...entry.tools.entries()];
    const hit =
      tools.find(([name]) => name === tool) ??
      tools.find(([, t]) => t.id === tool || t.id.endsWith(`.${idSegment(tool)}`));
    if (hit) return { id: hit[1].id };
    const suggestions = suggestToolIds(
      tool,
      tools.map(([name]) => name),
    );
    return failure(
      'NOT_FOUND',
      `MCP server '${entry.spec.name}' has no tool ` +
        `'${tool}'.${suggestions.length ? ` Did you mean: ${suggestions.join(', ')}?` : ''}`,
      {
        hint: 'Call mcp_list to see the tools of each server.',
        data: { suggestions },
      },
    );
  }

  onDidChange(listener: () => void): Disposable {
    return this.changes.on(listener);
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => this.disconnect(e.spec.name)));
  }

  private async open(
    spec: McpServerSpec,
    key: string,
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<Entry> {
    const connection = new McpConnection(
      spec,
      () => void this.refresh(key, connection),
      () => this.changes.emit(),
      this.httpFetch,
    );
    try {
      await connection.open(signal, timeoutMs);
      const tools = await connection.listTools(signal, timeoutMs);
      const entry: Entry = { spec, connection, tools: new Map(), registrations: new Map() };
      this.entries.set(key, entry);
      this.sync(entry, tools);
      return entry;
    } catch (e) {
      const stderr = connection.stderr;
      await connection.close({ force: true });
      throw connectFailure(e, spec, { stderr, timeoutMs, cancelled: signal?.aborted ?? false });
    }
  }

  /** Registers the listed tools as proxies, replacing changed ones and removing vanished ones. */
  private sync(entry: Entry, tools: RemoteTool[]): void {
    const ids = assignProxyIds(
      entry.spec.name,
      tools.map((t) => t.name),
    );
    const next = new Map<string, { id: string; remote: RemoteTool }>();
    for (const remote of tools) {
      const id = ids.get(remote.name);
      if (id && !next.has(remote.name)) next.set(remote.name, { id, remote });
    }
    const keep = new Set([...next.values()].map((t) => t.id));
    for (const [id, registration] of entry.registrations) {
      if (keep.has(id)) continue;
      registration.dispose();
      entry.registrations.delete(id);
    }
    const key = idSegment(entry.spec.name);
    for (const { id, remote } of next.values()) {
      const tool = proxyTool(entry.spec.name, id, remote, (name, args, ctx) => this.callRemote(key, name, args, ctx));
      // Register the new one first: disposing the old handle afterwards leaves the new tool in place.
      const registration = this.registry.register(tool, 'REPLACE', MCP_CLIENT_TOOLSET);
      entry.registrations.get(id)?.dispose();
      entry.registrations.set(id, registration);
    }
    entry.tools = next;
  }

  private async refresh(key: string, connection: McpConnection): Promise<void> {
    const entry = this.entries.get(key);
    if (!entry || entry.connection !== connection || connection.status !== 'connected') return;
    try {
      this.sync(entry, await connection.listTools(undefined, this.connectTimeoutMs));
      this.changes.emit();
    } catch {
      // The server went away while re-listing; its calls will say so.
    }
  }

  private async callRemote(
    key: string,
    name: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<ToolResult> {
    const entry = this.entries.get(key);
    if (!entry)
      return failure('EXECUTION_FAILED', `The MCP server of tool '${name}' was disconnected.`, {
        hint: 'Connect it again with mcp_connect.',
      });
    const { spec, connection } = entry;
    const secrets = specSecrets(spec);
    if (connection.status !== 'connected') {
      return failure(
        'EXECUTION_FAILED',
        `The MCP server '${spec.name}' is not connected: ${connection.closedReason ?? 'closed'}.`,
        {
          hint: reconnectHint(spec.name),
          data: { server: spec.name },
        },
      );
    }
    try {
      const result = await connection.callTool(name, args, {
        signal: ctx.signal,
        timeoutMs: this.callTimeoutMs,
        onProgress: (p) => ctx.progress(p),
      });
      return scrubValue(fromRemoteResult(result, spec.name, name), secrets);
    } catch (e) {
      throw fromRemoteError(e, { server: spec.name, tool: name, alive: connection.status === 'connected', secrets });
    }
  }

  private summary(entry: Entry): McpServerSummary {
    const { spec, connection } = entry;
    const error = connection.closedReason;
    const info = connection.serverInfo;
    return {
      name: spec.name,
      transport: spec.transport,
      target: describeTarget(spec),
      status: connection.status,
      ...(error ? { error: scrubValue(error, specSecrets(spec)) } : {}),
      ...(info ? { server: { name: info.name, version: info.version } } : {}),
      envKeys: spec.transport === 'stdio' ? Object.keys(spec.env).sort() : [],
      headerNames: spec.transport === 'http' ? Object.keys(spec.headers).sort() : [],
      tools: [...entry.tools.values()].map(({ id, remote }) => {
        const tool = this.registry.get(id);
        return {
          id,
          name: remote.name,
          title: tool?.title ?? remote.name,
          description: remote.description ?? '',
          readOnly: tool?.metadata.annotations.readOnlyHint ?? false,
          destructive: tool?.metadata.annotations.destructiveHint ?? true,
        };
      }),
    };
  }
}
