/**
 * The MCP endpoint (the SDK's Server; Streamable HTTP through http-session-transport.ts; stateful
 * sessions). Every tools/call goes through the host's executor, so an agent's call is gated,
 * limited, traced like any other.
 * Progress notifications are forwarded when the client asked for them (progressToken); a client's
 * cancellation, or the end of the request that carries the call, aborts it through its signal.
 *
 * A session belongs to the client (token) that opened it: another client sending its id gets the
 * same 404 as for an unknown id. The id never leaves this file: the pipeline, the audit, spans,
 * pending approvals and the UI know a session by its label `<client>#<n>` (n counts the host's
 * sessions, so a label is never reused while the host runs and can key "approve for this
 * session" without being a secret: only the id, with the owner's token, acts as the session).
 * Sessions are capped per client and in all, and close when idle.
 *
 * A session lists and calls only the tools of its toolsets (../toolsets/session-toolsets.ts): those
 * its client's token allows, or fewer when the initialize request asked for fewer with
 * `/mcp?toolsets=a,b`. When they change (toolset_enable, a person's edit of the token) the session
 * is told with `notifications/tools/list_changed`.
 *
 * A session may also live on one connection of the host's local socket (mcp-socket.ts, what the
 * stdio bridge uses): the same server, token, toolsets and caps, and the connection is the caller,
 * so its end closes the session and aborts every call it carries, as a request ending does here.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Disposable } from '../../core/disposable';
import type { ToolExecutor } from '../../core/executor';
import type { ToolRegistry } from '../../core/registry';
import type { ToolCall } from '../../core/tool';
import { newCallId } from '../../core/call-ids';
import type { ClientIdentity } from '../auth/client-tokens';
import { type SessionToolsets, parseToolsetList } from '../toolsets/session-toolsets';
import { serveContent } from './content-handlers';
import type { McpContentProvider } from './mcp-content';
import { HttpSessionTransport } from './http-session-transport';
import { OpenRequests } from './open-requests';
import { type SessionCaps, capRefusal } from './session-caps';
import { toMcpResult, toMcpTool } from './tool-listing';

interface Session {
  server: Server;
  /** Ends the session: its transport closes, and the onclose handler forgets it. */
  close(): Promise<void>;
  client: ClientIdentity;
  label: string;
  lastSeen: number;
  /** Tool calls still running: a session waiting on a long call or an approval is not idle. */
  inFlight: number;
}

interface HttpSession extends Session {
  transport: HttpSessionTransport;
}

export interface McpEndpointOptions {
  registry: ToolRegistry;
  executor: ToolExecutor;
  version: string;
  /** Each session's toolsets; the same object is the pipeline's scope, so calls and lists agree. */
  toolsets: SessionToolsets;
  /** Called with a session's label when it ends, so session-wide approvals can be forgotten. */
  onSessionClosed?: (label: string) => void;
  /** A session with no request for this long is closed (clients that vanish never send DELETE). Default 30 min. */
  idleSessionMs?: number;
  /** Open sessions allowed per client and in all. */
  caps?: Partial<SessionCaps>;
  /** Prompts and resources to serve besides the tools (the installed skills). */
  content?: McpContentProvider;
}

export const DEFAULT_SESSION_CAPS: SessionCaps = { perClient: 64, total: 256 };

/** Largest message a connection may send (as an HTTP body may be at most, host-server.ts). */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** What opening a session on a connection gave: its label, or why not (the caps). */
export type ConnectionSession = { ok: true; label: string } | { ok: false; message: string };

const NOT_FOUND = JSON.stringify({
  jsonrpc: '2.0',
  error: { code: -32001, message: 'Session not found; initialize a new session.' },
  id: null,
});

export class McpEndpoint {
  /** Streamable HTTP sessions by their id. */
  private readonly sessions = new Map<string, HttpSession>();
  /** Sessions on a connection, by label: they have no id, the connection is the session. */
  private readonly connected = new Map<string, Session>();
  /** Initializations under way, per client id: they count against the caps before they have an id. */
  private readonly opening = new Map<string, number>();
  private openingTotal = 0;
  private labelCount = 0;
  /** Each tools/call tied to its HTTP request: a caller whose request ends unanswered is gone. */
  private readonly requests = new OpenRequests();
  private readonly unsubscribe;
  private readonly unsubscribeToolsets;
  private readonly unsubscribeContent: Disposable | undefined;
  private readonly sweeper: NodeJS.Timeout;
  private readonly idleMs: number;
  private readonly caps: SessionCaps;

  constructor(private readonly options: McpEndpointOptions) {
    this.unsubscribe = options.registry.onChange(() => {
      for (const s of this.all()) void s.server.sendToolListChanged().catch(() => undefined);
    });
    this.unsubscribeToolsets = options.toolsets.onChange((label) => {
      for (const s of this.all()) if (s.label === label) void s.server.sendToolListChanged().catch(() => undefined);
    });
    this.unsubscribeContent = options.content?.onChange(() => {
      for (const s of this.all()) {
        void s.server.sendPromptListChanged().catch(() => undefined);
        void s.server.sendResourceListChanged().catch(() => undefined);
      }
    });
    this.idleMs = options.idleSessionMs ?? 30 * 60_000;
    this.caps = { ...DEFAULT_SESSION_CAPS, ...options.caps };
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(60_000, Math.max(50, this.idleMs / 2)));
    this.sweeper.unref();
  }

  private all(): Session[] {
    return [...this.sessions.values(), ...this.connected.values()];
  }

  /**
   * Closes HTTP sessions idle for longer than the limit; their transports' onclose forgets them. A
   * session on a connection is not: it ends with its connection, which its client holds open.
   */
  closeIdle(now = Date.now()): number {
    const idle = [...this.sessions.values()].filter((s) => s.inFlight === 0 && now - s.lastSeen > this.idleMs);
    for (const s of idle) void s.close().catch(() => undefined);
    return idle.length;
  }

  get sessionCount(): number {
    return this.sessions.size + this.connected.size;
  }

  /** Open sessions of one client. */
  sessionsOf(clientId: string): number {
    let n = 0;
    for (const s of this.all()) if (s.client.id === clientId) n++;
    return n;
  }

  /** Closes every session of a client (its token was revoked). */
  closeClient(clientId: string): number {
    const mine = this.all().filter((s) => s.client.id === clientId);
    for (const s of mine) void s.close().catch(() => undefined);
    return mine.length;
  }

  private createServer(label: string): Server {
    const { executor, version, toolsets, content } = this.options;
    const server = new Server(
      { name: 'toolgate', title: 'Toolgate', version },
      {
        capabilities: {
          tools: { listChanged: true },
          ...(content ? { prompts: { listChanged: true }, resources: { listChanged: true } } : {}),
        },
      },
    );
    if (content) serveContent(server, content);
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolsets.listed(label).map(toMcpTool) }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const progressToken = request.params._meta?.progressToken;
      const callId = newCallId();
      const client = server.getClientVersion();
      const gone = this.requests.signalOf(label, extra.requestId);
      const call: ToolCall = {
        toolId: request.params.name,
        args: request.params.arguments ?? {},
        callId,
        sessionId: label,
        requester: { kind: 'mcp', id: label, ...(client ? { label: `${client.name} ${client.version}` } : {}) },
        signal: gone ? AbortSignal.any([extra.signal, gone]) : extra.signal,
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
      const session = extra.sessionId ? this.sessions.get(extra.sessionId) : this.connected.get(label);
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

  /**
   * Handles a request the HTTP layer already checked; `client` is whom its bearer token names and
   * `body` the parsed JSON (POST).
   */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown, client: ClientIdentity): Promise<void> {
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId) {
      const existing = this.sessions.get(sessionId);
      // Another client's session is answered exactly like one that does not exist.
      if (!existing || existing.client.id !== client.id) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(NOT_FOUND);
        return;
      }
      existing.lastSeen = Date.now();
      this.requests.watch(existing.label, body, res);
      return existing.transport.handleRequest(req, res, body);
    }
    const refusal = this.refusalFor(client);
    if (refusal) {
      const id = (body as { id?: unknown } | undefined)?.id;
      res
        .writeHead(429, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: refusal }, id: id ?? null }));
      return;
    }
    this.reserve(client.id, 1);
    try {
      await this.open(req, res, body, client);
    } finally {
      this.reserve(client.id, -1);
    }
  }

  private refusalFor(client: ClientIdentity): string | undefined {
    return capRefusal(this.caps, client, this.sessionsOf(client.id) + (this.opening.get(client.id) ?? 0), {
      open: this.sessionCount + this.openingTotal,
      idleMs: this.idleMs,
    });
  }

  /**
   * Opens a session on a connection whose client the caller identified (mcp-socket.ts): MCP's
   * newline-delimited JSON-RPC both ways, as over stdio. The connection's end closes the session,
   * which aborts every call still running on it (the SDK aborts its handlers' signals), so a call
   * waiting for a person is withdrawn; closing the session (a revoked token) ends the connection.
   */
  async openConnection(
    stream: Duplex,
    client: ClientIdentity,
    opts: { toolsets?: readonly string[]; greet?: (label: string) => void } = {},
  ): Promise<ConnectionSession> {
    const refusal = this.refusalFor(client);
    if (refusal) return { ok: false, message: refusal };
    const label = `${client.name}#${++this.labelCount}`;
    this.options.toolsets.open(label, client, opts.toolsets);
    const server = this.createServer(label);
    const transport = new StdioServerTransport(stream, stream, { maxBufferSize: MAX_MESSAGE_BYTES });
    let closed = false;
    const session: Session = {
      server,
      close: async () => {
        stream.destroy();
        if (!closed) await transport.close();
      },
      client,
      label,
      lastSeen: Date.now(),
      inFlight: 0,
    };
    transport.onclose = () => {
      closed = true;
      stream.destroy();
      this.options.toolsets.close(label);
      if (this.connected.delete(label)) this.options.onSessionClosed?.(label);
    };
    this.connected.set(label, session);
    stream.once('close', () => void (closed ? undefined : transport.close()));
    stream.on('error', () => undefined);
    opts.greet?.(label);
    await server.connect(transport);
    // A client that hung up before its session was open has no one to serve.
    if (stream.destroyed && !closed) await transport.close();
    return { ok: true, label };
  }

  private reserve(clientId: string, delta: 1 | -1): void {
    this.openingTotal += delta;
    const n = (this.opening.get(clientId) ?? 0) + delta;
    if (n > 0) this.opening.set(clientId, n);
    else this.opening.delete(clientId);
  }

  private async open(req: IncomingMessage, res: ServerResponse, body: unknown, client: ClientIdentity): Promise<void> {
    const label = `${client.name}#${++this.labelCount}`;
    const asked = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('toolsets');
    this.options.toolsets.open(label, client, asked === null ? undefined : parseToolsetList(asked));
    const server = this.createServer(label);
    const transport: HttpSessionTransport = new HttpSessionTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) =>
        void this.sessions.set(id, {
          server,
          transport,
          close: () => transport.close(),
          client,
          label,
          lastSeen: Date.now(),
          inFlight: 0,
        }),
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      this.options.toolsets.close(label);
      if (id && this.sessions.delete(id)) this.options.onSessionClosed?.(label);
    };
    await server.connect(transport);
    try {
      await transport.handleRequest(req, res, body);
    } finally {
      // A request that opened no session (not an initialize, or a refused one) leaves no toolsets behind.
      if (!transport.sessionId) this.options.toolsets.close(label);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.unsubscribe.dispose();
    this.unsubscribeToolsets.dispose();
    this.unsubscribeContent?.dispose();
    const all = this.all();
    this.sessions.clear();
    await Promise.all(all.map((s) => s.server.close().catch(() => undefined)));
  }
}
