/**
 * The MCP endpoint (official SDK, Streamable HTTP, stateful sessions). Every tools/call goes
 * through the host's executor, so an agent's call is gated, limited, traced like any other.
 * Progress notifications are forwarded when the client asked for them (progressToken); a client's
 * cancellation aborts the running tool through its signal.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolExecutor } from '../../core/executor';
import type { ToolRegistry } from '../../core/registry';
import type { ToolCall } from '../../core/tool';
import { newCallId } from '../../core/call-ids';
import { toMcpResult, toMcpTool } from './tool-listing';

interface Session {
  server: Server;
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
  /** Tool calls still running: a session waiting on a long call or an approval is not idle. */
  inFlight: number;
}

export interface McpEndpointOptions {
  registry: ToolRegistry;
  executor: ToolExecutor;
  version: string;
  /** Called when a session ends, so session-wide approvals can be forgotten. */
  onSessionClosed?: (sessionId: string) => void;
  /** A session with no request for this long is closed (clients that vanish never send DELETE). Default 30 min. */
  idleSessionMs?: number;
}

export const mcpSessionId = (id: string | undefined): string => `mcp:${id ?? 'unknown'}`;

export class McpEndpoint {
  private readonly sessions = new Map<string, Session>();
  private readonly unsubscribe;
  private readonly sweeper: NodeJS.Timeout;
  private readonly idleMs: number;

  constructor(private readonly options: McpEndpointOptions) {
    this.unsubscribe = options.registry.onChange(() => {
      for (const s of this.sessions.values()) void s.server.sendToolListChanged().catch(() => undefined);
    });
    this.idleMs = options.idleSessionMs ?? 30 * 60_000;
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(60_000, Math.max(50, this.idleMs / 2)));
    this.sweeper.unref();
  }

  /** Closes sessions idle for longer than the limit; their transports' onclose forgets them. */
  closeIdle(now = Date.now()): number {
    const idle = [...this.sessions.values()].filter((s) => s.inFlight === 0 && now - s.lastSeen > this.idleMs);
    for (const s of idle) void s.transport.close().catch(() => undefined);
    return idle.length;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  private createServer(): Server {
    const { registry, executor, version } = this.options;
    const server = new Server(
      { name: 'toolgate', title: 'Toolgate', version },
      { capabilities: { tools: { listChanged: true } } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: registry.list().map(toMcpTool) }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const progressToken = request.params._meta?.progressToken;
      const callId = newCallId();
      const client = server.getClientVersion();
      const call: ToolCall = {
        toolId: request.params.name,
        args: request.params.arguments ?? {},
        callId,
        sessionId: mcpSessionId(extra.sessionId),
        requester: {
          kind: 'mcp',
          ...(extra.sessionId ? { id: extra.sessionId } : {}),
          ...(client ? { label: `${client.name} ${client.version}` } : {}),
        },
        signal: extra.signal,
      };
      if (progressToken !== undefined) {
        call.onProgress = (p) =>
          void extra
            .sendNotification({
              method: 'notifications/progress',
              params: {
                progressToken,
                progress: p.progress,
                ...(p.total !== undefined ? { total: p.total } : {}),
                ...(p.message ? { message: p.message } : {}),
              },
            })
            .catch(() => undefined);
      }
      const session = extra.sessionId ? this.sessions.get(extra.sessionId) : undefined;
      if (session) session.inFlight++;
      try {
        return toMcpResult(await executor.execute(call), callId);
      } finally {
        if (session) {
          session.inFlight--;
          session.lastSeen = Date.now();
        }
      }
    });
    return server;
  }

  /** Handles a request already authenticated and checked by the HTTP layer; `body` is the parsed JSON (POST). */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    const existing = sessionId ? this.sessions.get(sessionId) : undefined;
    if (existing) {
      existing.lastSeen = Date.now();
      return existing.transport.handleRequest(req, res, body);
    }
    if (sessionId) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32001, message: 'Session not found; initialize a new session.' },
          id: null,
        }),
      );
      return;
    }
    const server = this.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) =>
        void this.sessions.set(id, { server, transport, lastSeen: Date.now(), inFlight: 0 }),
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id && this.sessions.delete(id)) this.options.onSessionClosed?.(mcpSessionId(id));
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.unsubscribe.dispose();
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.server.close().catch(() => undefined)));
  }
}
