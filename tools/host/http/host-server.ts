/**
 * The host's one HTTP server on 127.0.0.1: the MCP endpoint at /mcp (an MCP client's token), the
 * contract at /api/rpc/* and the WebSockets /api/events (live events) and /api/screen (a device's
 * live screen), all three the person's UI session's, the one-time links that open a UI session at
 * /session/*, and the renderer build at /, which hands out no credential. Every route checks the
 * peer's account and the Host header.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { WebSocketServer } from 'ws';
import type { HostEvent } from '../../../shared/contract';
import type { Disposable } from '../../core/disposable';
import type { McpEndpoint } from '../mcp/mcp-endpoint';
import { HOST_PROOF_PATH, answerHostProof } from './host-proof';
import { BodyTooLargeError, readBody } from './read-body';
import { UI_LINK_PATH } from '../../../shared/ui-session';
import type { ClientTokens } from '../auth/client-tokens';
import { UI_LINK_TTL_MS } from '../auth/ui-link';
import type { UiSessions } from '../auth/ui-sessions';
import { checkPerson, sessionCookies } from './person-guard';
import { checkHost, checkOrigin, firstFailure, identifyClient } from './request-guard';
import { type HostApiHandlers, dispatchRpc } from './rpc-dispatch';
import { type PeerUidLookup, samePeerAccount } from './peer-uid';
import { serveScreenSocket } from './screen-socket';
import { serveStatic } from './static-files';
import { SCREEN_SOCKET_PATH } from '../../../shared/screen-wire';
import type { ScreenWatcher } from '../surfaces';

export interface HostServerOptions {
  clients: ClientTokens;
  sessions: UiSessions;
  mcp: McpEndpoint;
  api: HostApiHandlers;
  events: { on(listener: (e: HostEvent) => void): Disposable };
  /** Live device screens for `/api/screen`; absent when the host has no device tools. */
  screens?: ScreenWatcher;
  rendererDir: string;
  /** Who owns a connection's client end (default: the kernel's socket table). */
  peerUid?: PeerUidLookup;
  /** Largest accepted request body; larger is a 413. */
  maxBodyBytes?: number;
  /** A request whose headers and body have not all arrived within this time is ended with a 408; default 60 s. */
  requestTimeoutMs?: number;
  /** Open connections at most (all from this account: other accounts are refused); more are dropped. Default 2,048. */
  maxConnections?: number;
  log?: (line: string) => void;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** A body larger than this is parsed in a turn of the event loop of its own (see jsonBody). */
const LARGE_BODY_BYTES = 256 * 1024;
export const DEFAULT_MAX_CONNECTIONS = 2048;

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
    // Stuck clients must not pin the host, but a busy machine must not cut off a healthy one. The
    // request timeout runs until the request is fully received (headers and body), not until it is
    // answered, so a body sent a byte at a time is ended while a call waiting minutes for an approval
    // is not. 60 s by default: a 15 s limit reset connections of a 1,000-call burst on a loaded
    // 2-core machine. Node checks the limit every `connectionsCheckingInterval`, so that follows it.
    // Idle keep-alive sockets are kept longer than clients keep theirs, so a client never sends into
    // a socket the host is closing.
    const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.http = createServer(
      {
        requestTimeout,
        headersTimeout: Math.min(60_000, requestTimeout),
        connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(requestTimeout / 4))),
        keepAliveTimeout: 30_000,
      },
      (req, res) => void this.route(req, res).catch((e: unknown) => this.fail(res, e)),
    );
    this.http.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    this.http.on('upgrade', (req, socket, head) => {
      void this.upgrade(req, socket, head).catch((e: unknown) => {
        this.options.log?.(`upgrade failed: ${e instanceof Error ? e.message : String(e)}`);
        socket.destroy();
      });
    });
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
    if (!(await this.sameAccount(req.socket, this.port))) {
      this.options.log?.(`refused a connection from another account of this machine (port ${req.socket.remotePort})`);
      // Closed after the answer: another account holds no connection of the capped pool.
      return send(res, 403, { error: OTHER_ACCOUNT }, { connection: 'close' });
    }
    const host = checkHost(req);
    if (!host.ok) return send(res, host.status, { error: host.message });
    if (url.pathname === '/healthz') return send(res, 200, { ok: true });
    if (url.pathname === HOST_PROOF_PATH)
      return answerHostProof(req, res, (hint) => this.options.clients.digestForHint(hint));

    if (url.pathname === '/mcp') {
      const origin = checkOrigin(req, this.port);
      const verdict = origin.ok ? identifyClient(req, this.options.clients) : origin;
      if (!verdict.ok)
        return send(
          res,
          verdict.status,
          { jsonrpc: '2.0', error: { code: -32001, message: verdict.message }, id: null },
          verdict.status === 401 ? { 'www-authenticate': 'Bearer' } : {},
        );
      const body = req.method === 'POST' ? await this.jsonBody(req, res, true) : undefined;
      if (body === NO_BODY) return;
      return this.options.mcp.handle(req, res, body, verdict.client);
    }

    if (url.pathname.startsWith(UI_LINK_PATH)) return this.openUiSession(req, res, url.pathname);

    if (url.pathname.startsWith('/api/rpc/')) {
      const verdict = checkPerson(req, { sessions: this.options.sessions, port: this.port, csrf: true });
      if (!verdict.ok) return send(res, verdict.status, { error: verdict.message });
      if (req.method !== 'POST') return send(res, 405, { error: 'Use POST.' }, { allow: 'POST' });
      const body = await this.jsonBody(req, res, false);
      if (body === NO_BODY) return;
      const outcome = await dispatchRpc(this.options.api, url.pathname.slice('/api/rpc/'.length), body);
      return send(res, outcome.status, outcome.body);
    }

    if (req.method === 'GET' || req.method === 'HEAD') {
      if (serveStatic(this.options.rendererDir, url.pathname, res)) return;
      if (url.pathname === '/')
        return send(res, 503, { error: 'The UI is not built. Run `npm run build`, then restart.' });
    }
    send(res, 404, { error: 'Not found.' });
  }

  /** `GET /session/<secret>`: a one-time link becomes the person's session cookie, then the UI. */
  private openUiSession(req: IncomingMessage, res: ServerResponse, pathname: string): void {
    // Only GET redeems: a HEAD from a link checker must not use up the person's link.
    if (req.method !== 'GET') return send(res, 405, { error: 'Open this link in a browser.' }, { allow: 'GET' });
    const redeemed = this.options.sessions.redeem(pathname.slice(UI_LINK_PATH.length));
    const headers = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };
    if (!redeemed.ok) {
      res
        .writeHead(403, {
          ...headers,
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': "default-src 'none'",
        })
        .end(linkRefusedPage(redeemed.reason));
      return;
    }
    res
      .writeHead(303, { ...headers, location: '/', 'set-cookie': sessionCookies(redeemed.sessionId, redeemed.csrf) })
      .end();
  }

  /**
   * Parses a JSON body; on failure answers the request itself and returns NO_BODY. A large body
   * is parsed in a turn of the event loop of its own: what the call does next (the MCP SDK, the
   * pipeline, the copy to a worker) waits for the next turn, so other requests are served between.
   */
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
      // Decoded in one piece: a buffer lives outside the JavaScript heap, and a string of megabytes
      // made from it goes straight to the large-object space, which the young generation's GC never copies.
      const body: unknown = JSON.parse(raw.toString('utf8'));
      if (raw.length > LARGE_BODY_BYTES) await nextTurn();
      return body;
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

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // Every socket is the person's and passes this one check: a new socket cannot be guarded differently.
    const verdict = !SOCKET_PATHS.has(url.pathname)
      ? ({ ok: false, status: 403, message: 'no such socket' } as const)
      : !(await this.sameAccount(req.socket, this.port))
        ? ({ ok: false, status: 403, message: OTHER_ACCOUNT } as const)
        : firstFailure(
            () => checkHost(req),
            () =>
              checkPerson(req, {
                sessions: this.options.sessions,
                port: this.port,
                csrf: false,
                queryToken: url.searchParams.get('token'),
              }),
          );
    if (!verdict.ok) {
      // The refusal says why, as the HTTP routes do: a client (or the person reading its log) learns what it lacks.
      const body = Buffer.from(`${verdict.message}\n`, 'utf8');
      socket.end(
        `HTTP/1.1 ${verdict.status} ${verdict.status === 401 ? 'Unauthorized' : 'Forbidden'}\r\n` +
          'Connection: close\r\nContent-Type: text/plain; charset=utf-8\r\n' +
          `Content-Length: ${body.length}\r\n\r\n${body.toString('utf8')}`,
      );
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (url.pathname === SCREEN_SOCKET_PATH) return serveScreenSocket(ws, url, this.options.screens);
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
const SOCKET_PATHS = new Set(['/api/events', SCREEN_SOCKET_PATH]);

function linkRefusedPage(reason: string): string {
  return (
    '<!doctype html><meta charset="utf-8"><title>Toolgate</title><h1>This link cannot open Toolgate</h1>' +
    `<p>Each link opens the UI once, within ${UI_LINK_TTL_MS / 60_000} minutes: ${reason}.</p>` +
    '<p>Run <code>toolgate ui-link --data-dir DIR</code> for a fresh link, with the data dir the host uses.</p>'
  );
}
