/**
 * The host's local MCP socket, DATA/mcp.sock: what the stdio bridge (`toolgate mcp-stdio`) talks
 * to, so a stdio client's calls cross one local stream instead of an HTTP request each. A Unix-domain
 * socket (a named pipe on Windows, which has no such file to protect: the bridge uses HTTP there).
 *
 * Who may connect: the socket is 0600 inside the data dir, which is the owner's alone (0700,
 * data-dir.ts), so only this account reaches it; and every connection first presents a client
 * token, in one line `{"token":"…"}`, answered `{"ok":true,"session":LABEL}` or
 * `{"ok":false,"error":…}` and closed. After that the connection is one MCP session of that client
 * (McpEndpoint.openConnection): the same tools, toolsets, caps and pipeline as over HTTP, and no
 * other route of the host (the person's API, its sockets) exists on it. The connection is the
 * caller: when it ends, the calls it carries are aborted and approvals it waits for withdrawn.
 */
import { lstatSync, chmodSync, unlinkSync } from 'node:fs';
import { type Server, type Socket, connect, createServer } from 'node:net';
import { join } from 'node:path';
import type { ClientTokens } from '../auth/client-tokens';
import type { McpEndpoint } from './mcp-endpoint';

export const MCP_SOCKET_NAME = 'mcp.sock';
/** A hello longer than this is not one (a token is a few dozen bytes). */
const MAX_HELLO_BYTES = 8 * 1024;
/** A connection that has not said hello within this time is closed. */
const HELLO_TIMEOUT_MS = 10_000;
/** Open connections at most, as the HTTP server allows (http/host-server.ts); more are dropped. */
const MAX_CONNECTIONS = 2048;
/** sockaddr_un holds 108 bytes on Linux, 104 on macOS; a longer path cannot be bound. */
const MAX_PATH_BYTES = 103;

export function mcpSocketPath(dataDir: string): string {
  return join(dataDir, MCP_SOCKET_NAME);
}

export interface Hello {
  token: string;
}

/** The hello line, or why it is not one. */
export function parseHello(line: string): Hello | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'The first line must be {"token":"…"} (JSON).';
  }
  const v = value as Partial<Hello> | null;
  if (typeof v !== 'object' || v === null || typeof v.token !== 'string')
    return 'The first line must be {"token":"…"}, the client token.';
  return { token: v.token };
}

function answer(socket: Socket, reply: Record<string, unknown>): void {
  socket.write(`${JSON.stringify(reply)}\n`);
}

/** Whether a socket file at `path` has a listener (another host of this data dir). */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

export class McpSocketServer {
  private readonly server: Server;
  private readonly open = new Set<Socket>();
  private listening = false;

  constructor(
    readonly path: string,
    private readonly endpoint: McpEndpoint,
    private readonly clients: ClientTokens,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.server = createServer((socket) => this.greet(socket));
    this.server.maxConnections = MAX_CONNECTIONS;
  }

  /** Listens; false (and a log line) when the socket cannot be made here, so the bridge uses HTTP. */
  async listen(): Promise<boolean> {
    if (process.platform === 'win32') return false;
    if (Buffer.byteLength(this.path) > MAX_PATH_BYTES) {
      this.log(`no local MCP socket: its path is too long for a Unix socket (${this.path})`);
      return false;
    }
    const existing = lstatOrUndefined(this.path);
    if (existing) {
      // Only a dead socket is ours to replace; a live one is another host's, anything else not a socket.
      if (!existing.isSocket() || (await answers(this.path))) {
        this.log(`no local MCP socket: ${this.path} exists and is ${existing.isSocket() ? 'in use' : 'not a socket'}`);
        return false;
      }
      unlinkSync(this.path);
    }
    try {
      await new Promise<void>((resolve, reject) => {
        this.server.once('error', reject);
        this.server.listen(this.path, () => resolve());
      });
      chmodSync(this.path, 0o600);
    } catch (e) {
      this.log(`no local MCP socket: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    }
    this.listening = true;
    return true;
  }

  private greet(socket: Socket): void {
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
    socket.on('error', () => undefined);
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => refuse('No hello within 10 s.'), HELLO_TIMEOUT_MS);
    const refuse = (error: string) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.end(`${JSON.stringify({ ok: false, error })}\n`);
    };
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf(0x0a);
      if (end < 0) {
        if (received.length > MAX_HELLO_BYTES) refuse('The hello line is too long.');
        return;
      }
      clearTimeout(timer);
      socket.off('data', onData);
      socket.pause();
      const rest = received.subarray(end + 1);
      void this.admit(socket, received.subarray(0, end).toString('utf8'), rest, refuse);
    };
    socket.on('data', onData);
  }

  private async admit(socket: Socket, line: string, rest: Buffer, refuse: (error: string) => void): Promise<void> {
    const hello = parseHello(line);
    if (typeof hello === 'string') return refuse(hello);
    const client = this.clients.identify(hello.token);
    if (!client) return refuse('Invalid or revoked client token.');
    // Whatever the client sent after its hello is the start of its MCP stream.
    if (rest.length > 0) socket.unshift(rest);
    const opened = await this.endpoint.openConnection(socket, client, {
      // The answer goes out before the session can say anything.
      greet: (label) => answer(socket, { ok: true, session: label }),
    });
    if (!opened.ok) return refuse(opened.message);
    socket.resume();
  }

  async close(): Promise<void> {
    if (!this.listening) return;
    this.listening = false;
    for (const socket of this.open) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
