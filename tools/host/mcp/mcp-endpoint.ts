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
import { newCallId } from '../../core/call-ids';
import { toMcpResult, toMcpTool } from './tool-listing';

interface Session {
  server: Server;
  transport: StreamableHTTPServerTransport;
}

export interface McpEndpointOptions {
  registry: ToolRegistry;
  executor: ToolExecutor;
  version: string;
  /** Called when a session ends, so session-wide approvals can be forgotten. */
  onSessionClosed?: (sessionId: string) => void;
}

export const mcpSessionId = (id: string | undefined): string => `mcp:${id ?? 'unknown'}`;

export class McpEndpoint {
  private readonly sessions = new Map<string, Session>();
  private readonly unsubscribe;

  constructor(private readonly options: McpEndpointOptions) {
    this.unsubscribe = options.registry.onChange(() => {
      for (const s of this.sessions.values()) void s.server.sendToolListChanged().catch(() => undefined);
    });
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  private createServer(): Server {
    const { registry, executor, version } = this.options;
    const server = new Server({ name: 'toolgate', title: 'Toolgate', version }, { capabilities: { tools: { listChanged: true } } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: registry.list().map(toMcpTool) }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const progressToken = request.params._meta?.progressToken;
      const callId = newCallId();
      const client = server.getClientVersion();
      const result = await executor.execute({
        toolId: request.params.name,
        args: request.params.arguments ?? {},
        callId,
        sessionId: mcpSessionId(extra.sessionId),
        requester: { kind: 'mcp', ...(extra.sessionId ? { id: extra.sessionId } : {}), ...(client ? { label: `${client.name} ${client.version}` } : {}) },
        signal: extra.signal,
        ...(progressToken !== undefined
          ? {
              onProgress: (p) =>
                void extra
                  .sendNotification({ method: 'notifications/progress', params: { progressToken, progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message ? { message: p.message } : {}) } })
                  .catch(() => undefined),
            }
          : {}),
      });
      return toMcpResult(result, callId);
    });
    return server;
  }

  /** Handles a request already authenticated and checked by the HTTP layer; `body` is the parsed JSON (POST). */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    const existing = sessionId ? this.sessions.get(sessionId) : undefined;
    if (existing) return existing.transport.handleRequest(req, res, body);
    if (sessionId) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found; initialize a new session.' }, id: null }));
      return;
    }
    const server = this.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, { server, transport }),
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id && this.sessions.delete(id)) this.options.onSessionClosed?.(mcpSessionId(id));
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async close(): Promise<void> {
    this.unsubscribe.dispose();
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.server.close().catch(() => undefined)));
  }
}
