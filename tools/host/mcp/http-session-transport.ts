/**
 * One MCP session over Streamable HTTP (MCP 2025-06-18, "Transports"), on Node's own request and
 * response. Written here rather than taken from the SDK: the SDK's Node transport turns every
 * request into a Fetch Request and its answer back into a Node response (through
 * @hono/node-server), and answers a request either always as SSE or, when told to, always as
 * JSON, dropping progress (docs/architecture.md, "MCP over HTTP", has what that cost per call).
 * Here each POST is answered as JSON when its answer is all there is to send, and becomes an SSE
 * stream when the call sends progress or is slow (post-reply.ts), so nothing is dropped.
 *
 * The host's HTTP layer has already checked the caller (token, origin, host, account) and parsed
 * the body, and the endpoint routes by session id (mcp-endpoint.ts). What the transport checks is
 * the protocol's: the Accept and Content-Type a client must send, JSON-RPC messages, one
 * initialize per session, the session id and the protocol version on every later request.
 * Messages are checked with the SDK's own JSON-RPC schema, as its transports do.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_REPLY_TIMINGS, PostReply, type ReplyTimings, SSE_HEADERS, sseEvent } from './post-reply';

export interface HttpSessionOptions {
  sessionIdGenerator: () => string;
  /** Called with the new id once an initialize request is accepted, before it is answered. */
  onsessioninitialized?: (sessionId: string) => void;
  timings?: ReplyTimings;
}

const SUPPORTED_VERSIONS = SUPPORTED_PROTOCOL_VERSIONS.join(', ');

const SESSION_ENDED = {
  code: -32001,
  message: 'The session ended before this request was answered; initialize a new session and retry.',
};

function refuse(res: ServerResponse, status: number, code: number, message: string, headers = {}): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(body);
}

function accepts(req: IncomingMessage, type: string): boolean {
  return (req.headers.accept ?? '').includes(type);
}

export class HttpSessionTransport implements Transport {
  sessionId?: string;
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private initialized = false;
  private closed = false;
  /** The POST each request still unanswered came on. */
  private readonly replies = new Map<RequestId, PostReply>();
  /** The GET stream for what the server sends on its own (tools/list_changed), kept alive as a slow reply is. */
  private standalone: ServerResponse | undefined;
  /**
   * List changes sent while the client held no GET stream (it opens it after initialize, and again
   * after it dropped), by method: sent when the stream opens. A list change says "the list is not
   * what you read": one of each kind tells all of them, and a client that connected a moment before
   * a change (its tools turned on, a GitHub token set) still hears it.
   */
  private readonly heldChanges = new Map<string, JSONRPCMessage>();
  private readonly timings: ReplyTimings;

  constructor(private readonly options: HttpSessionOptions) {
    this.timings = options.timings ?? DEFAULT_REPLY_TIMINGS;
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const related = 'method' in message ? options?.relatedRequestId : 'id' in message ? message.id : undefined;
    if (related !== undefined) {
      this.replies.get(related)?.send(message);
      return;
    }
    // Sent on the server's own account: only a client holding the GET stream hears it, and a list
    // change waits for the stream; anything else without one is dropped, as in the SDK.
    if (this.standalone && !this.standalone.writableEnded) this.standalone.write(sseEvent(message));
    else if ('method' in message && !('id' in message) && message.method.endsWith('/list_changed'))
      this.heldChanges.set(message.method, message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const reply of new Set(this.replies.values())) reply.abandon(SESSION_ENDED);
    this.replies.clear();
    this.standalone?.end();
    this.standalone = undefined;
    this.onclose?.();
  }

  /** Answers one HTTP request of this session; `body` is the parsed JSON of a POST. */
  async handleRequest(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (req.method === 'POST') return this.post(req, res, body);
    if (req.method === 'GET') return this.get(req, res);
    if (req.method === 'DELETE') {
      if (!this.sessionValid(req, res)) return;
      await this.close();
      res.writeHead(200).end();
      return;
    }
    refuse(res, 405, -32000, 'Method not allowed.', { allow: 'GET, POST, DELETE' });
  }

  private post(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    if (!accepts(req, 'application/json') || !accepts(req, 'text/event-stream'))
      return refuse(
        res,
        406,
        -32000,
        'Not Acceptable: the client must accept both application/json and text/event-stream.',
      );
    if (!(req.headers['content-type'] ?? '').includes('application/json'))
      return refuse(res, 415, -32000, 'Unsupported Media Type: the body must be application/json.');
    const raw = Array.isArray(body) ? body : [body];
    const messages: JSONRPCMessage[] = [];
    for (const m of raw) {
      const parsed = JSONRPCMessageSchema.safeParse(m);
      if (!parsed.success) return refuse(res, 400, -32700, 'Parse error: the body is not a JSON-RPC message.');
      messages.push(parsed.data);
    }
    if (messages.length === 0) return refuse(res, 400, -32600, 'Invalid Request: the batch is empty.');
    const initializing = messages.some((m) => 'method' in m && m.method === 'initialize');
    if (initializing) {
      if (this.initialized) return refuse(res, 400, -32600, 'Invalid Request: the session is already initialized.');
      if (messages.length > 1)
        return refuse(res, 400, -32600, 'Invalid Request: an initialize request must come alone.');
      this.sessionId = this.options.sessionIdGenerator();
      this.initialized = true;
      this.options.onsessioninitialized?.(this.sessionId);
    } else if (!this.sessionValid(req, res)) return;
    if (this.closed) return refuse(res, 404, -32001, 'Session not found; initialize a new session.');
    const ids = messages.flatMap((m) => ('method' in m && 'id' in m ? [m.id] : []));
    if (ids.length === 0) {
      res.writeHead(202).end();
    } else {
      const headers: Record<string, string> = this.sessionId ? { 'mcp-session-id': this.sessionId } : {};
      const reply = new PostReply(res, ids, headers, this.timings, (ended) => {
        for (const id of ended) if (this.replies.get(id) === reply) this.replies.delete(id);
      });
      for (const id of ids) this.replies.set(id, reply);
    }
    // No request info for the handlers: its headers carry the bearer token, and nothing here reads them.
    for (const m of messages) this.onmessage?.(m);
  }

  private get(req: IncomingMessage, res: ServerResponse): void {
    if (!accepts(req, 'text/event-stream'))
      return refuse(res, 406, -32000, 'Not Acceptable: the client must accept text/event-stream.');
    if (!this.sessionValid(req, res)) return;
    if (this.standalone && !this.standalone.writableEnded)
      return refuse(res, 409, -32000, 'Conflict: this session already has its GET stream.');
    res.writeHead(200, { ...SSE_HEADERS, ...(this.sessionId ? { 'mcp-session-id': this.sessionId } : {}) });
    res.flushHeaders();
    this.standalone = res;
    for (const change of this.heldChanges.values()) res.write(sseEvent(change));
    this.heldChanges.clear();
    // A stream with nothing to say for minutes would end at the client's idle timeout, and with it the list changes.
    const keepAlive = setInterval(() => res.write(': waiting\n\n'), this.timings.keepAliveMs);
    res.once('close', () => {
      clearInterval(keepAlive);
      if (this.standalone === res) this.standalone = undefined;
    });
  }

  /** Whether a request after initialize names this session and a protocol version the SDK speaks; refused if not. */
  private sessionValid(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.initialized) {
      refuse(res, 400, -32000, 'Bad Request: the session is not initialized; send initialize first.');
      return false;
    }
    const header = req.headers['mcp-session-id'];
    const id = Array.isArray(header) ? header[0] : header;
    if (id === undefined) {
      refuse(res, 400, -32000, 'Bad Request: the Mcp-Session-Id header is required.');
      return false;
    }
    if (id !== this.sessionId) {
      refuse(res, 404, -32001, 'Session not found; initialize a new session.');
      return false;
    }
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      refuse(res, 400, -32000, `Bad Request: unsupported MCP-Protocol-Version; supported: ${SUPPORTED_VERSIONS}.`);
      return false;
    }
    return true;
  }
}
