/**
 * The host's one HTTP server on 127.0.0.1: the MCP endpoint at /mcp, the contract at /api/rpc/*,
 * live events over the WebSocket /api/events, and the renderer build at /. Every route but the
 * page shell and /healthz passes the request guard (Host, Origin, token).
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { HostEvent } from '../../../shared/contract';
import type { Disposable } from '../../core/disposable';
import type { McpEndpoint } from '../mcp/mcp-endpoint';
import { HOST_PROOF_PATH, answerHostProof } from './host-proof';
import { BodyTooLargeError, readBody } from './read-body';
import { SESSION_COOKIE, checkHost, checkOrigin, checkToken, firstFailure } from './request-guard';
import { type HostApiHandlers, dispatchRpc } from './rpc-dispatch';
import { type PeerUidLookup, samePeerAccount } from './peer-uid';
import { serveStatic } from './static-files';

export interface HostServerOptions {
  token: string;
  mcp: McpEndpoint;
  api: HostApiHandlers;
  events: { on(listener: (e: HostEvent) => void): Disposable };
  rendererDir: string;
  /** Who owns a connection's client end (default: the kernel's socket table). */
  peerUid?: PeerUidLookup;
  /** Largest accepted request body; larger is a 413. */
  maxBodyBytes?: number;
  log?: (line: string) => void;
}

const OTHER_ACCOUNT = 'This Toolgate host belongs to another account of this machine; start your own (npm run serve).';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { ...JSON_HEADERS, ...headers }).end(JSON.stringify(body));
}

export class HostServer {
  private readonly http: Server;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private port = 0;
  private readonly sameAccount: ReturnType<typeof samePeerAccount>;

  constructor(private readonly options: HostServerOptions) {
    this.sameAccount = samePeerAccount(options.peerUid);
    this.http = createServer((req, res) => void this.route(req, res).catch((e: unknown) => this.fail(res, e)));
    this.http.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
    // Stuck clients must not pin the host, but a busy machine must not cut off a healthy one: Node's
    // default 60 s for the headers (a 15 s limit reset connections of a 1,000-call burst on a loaded
    // 2-core machine), no limit on a whole request (a call may wait minutes for an approval), and idle
    // keep-alive sockets kept longer than clients keep theirs, so a client never sends into a socket
    // the host is closing.
    this.http.headersTimeout = 60_000;
    this.http.requestTimeout = 0;
    this.http.keepAliveTimeout = 30_000;
  }

  async listen(port: number): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.http.address() as AddressInfo).port;
    return this.port;
  }

  get address(): { port: number; ui: string; mcp: string } {
    return { port: this.port, ui: `http://127.0.0.1:${this.port}/`, mcp: `http://127.0.0.1:${this.port}/mcp` };
  }

  private fail(res: ServerResponse, e: unknown): void {
    this.options.log?.(`request failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    send(res, 500, { error: 'internal error' });
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!this.sameAccount(req.socket, this.port)) {
      this.options.log?.(`refused a connection from another account of this machine (port ${req.socket.remotePort})`);
      return send(res, 403, { error: OTHER_ACCOUNT });
    }
    const host = checkHost(req);
    if (!host.ok) return send(res, host.status, { error: host.message });
    if (url.pathname === '/healthz') return send(res, 200, { ok: true });
    if (url.pathname === HOST_PROOF_PATH) return answerHostProof(req, res, this.options.token);

    if (url.pathname === '/mcp') {
      const verdict = firstFailure(
        () => checkOrigin(req, this.port),
        () => checkToken(req, this.options.token, { allowCookie: false }),
      );
      if (!verdict.ok)
        return send(
          res,
          verdict.status,
          { jsonrpc: '2.0', error: { code: -32001, message: verdict.message }, id: null },
          verdict.status === 401 ? { 'www-authenticate': 'Bearer' } : {},
        );
      const body = req.method === 'POST' ? await this.jsonBody(req, res, true) : undefined;
      if (body === NO_BODY) return;
      return this.options.mcp.handle(req, res, body);
    }

    if (url.pathname.startsWith('/api/rpc/')) {
      const verdict = firstFailure(
        () => checkOrigin(req, this.port),
        () => checkToken(req, this.options.token, { allowCookie: true }),
      );
      if (!verdict.ok) return send(res, verdict.status, { error: verdict.message });
      if (req.method !== 'POST') return send(res, 405, { error: 'Use POST.' }, { allow: 'POST' });
      const body = await this.jsonBody(req, res, false);
      if (body === NO_BODY) return;
      const outcome = await dispatchRpc(this.options.api, url.pathname.slice('/api/rpc/'.length), body);
      return send(res, outcome.status, outcome.body);
    }

    if (req.method === 'GET' || req.method === 'HEAD') {
      const cookie = `${SESSION_COOKIE}=${encodeURIComponent(this.options.token)}; Path=/; HttpOnly; SameSite=Strict`;
      if (serveStatic(this.options.rendererDir, url.pathname, res, { 'set-cookie': cookie })) return;
      if (url.pathname === '/')
        return send(res, 503, { error: 'The UI is not built. Run `npm run build`, then restart.' });
    }
    send(res, 404, { error: 'Not found.' });
  }

  /** Parses a JSON body; on failure answers the request itself and returns NO_BODY. */
  private async jsonBody(req: IncomingMessage, res: ServerResponse, jsonRpc: boolean): Promise<unknown> {
    let raw: Buffer;
    try {
      raw = await readBody(req, this.options.maxBodyBytes ?? 4 * 1024 * 1024);
    } catch (e) {
      if (e instanceof BodyTooLargeError) {
        send(
          res,
          413,
          jsonRpc ? { jsonrpc: '2.0', error: { code: -32600, message: e.message }, id: null } : { error: e.message },
          { connection: 'close' },
        );
        return NO_BODY;
      }
      throw e;
    }
    if (raw.length === 0) return jsonRpc ? undefined : {};
    try {
      return JSON.parse(raw.toString('utf8'));
    } catch {
      send(
        res,
        400,
        jsonRpc
          ? { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not valid JSON.' }, id: null }
          : { error: 'The body is not valid JSON.' },
      );
      return NO_BODY;
    }
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const verdict =
      url.pathname !== '/api/events'
        ? ({ ok: false, status: 403, message: 'no such socket' } as const)
        : !this.sameAccount(req.socket, this.port)
          ? ({ ok: false, status: 403, message: OTHER_ACCOUNT } as const)
          : firstFailure(
              () => checkHost(req),
              () => checkOrigin(req, this.port),
              () =>
                checkToken(req, this.options.token, { allowCookie: true, queryToken: url.searchParams.get('token') }),
            );
    if (!verdict.ok) {
      socket.end(
        `HTTP/1.1 ${verdict.status} ${verdict.status === 401 ? 'Unauthorized' : 'Forbidden'}\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const sub = this.options.events.on((event) => {
        // A client that cannot keep up loses events rather than growing the host's memory.
        if (ws.readyState === ws.OPEN && ws.bufferedAmount < 8 * 1024 * 1024) ws.send(JSON.stringify(event));
      });
      ws.on('close', () => sub.dispose());
      ws.on('error', () => sub.dispose());
      ws.on('message', () => undefined);
    });
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}

const NO_BODY = Symbol('no-body');
