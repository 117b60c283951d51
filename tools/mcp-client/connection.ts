/**
 * One live MCP client session (official SDK `Client`) over stdio or Streamable HTTP. Knows
 * whether the server is still there: the transport closing (process exited, session ended) marks
 * it closed, and the reason — with the tail of the program's stderr — is kept for the error a
 * later call gets.
 */
import type { Stream } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Implementation, Tool as RemoteTool } from '@modelcontextprotocol/sdk/types.js';
import type { ProgressUpdate } from '../core/tool';
import type { FetchLike } from '../network/http-fetch';
import type { McpServerSpec } from './server-spec';

export type { RemoteTool };

export const CLIENT_INFO: Implementation = { name: 'toolgate', version: '0.1.0' };
const STDERR_TAIL = 2048;
const MAX_TOOL_PAGES = 50;

export type ConnectionStatus = 'connected' | 'closed';

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress?: (update: ProgressUpdate) => void;
}

export class McpConnection {
  private client: Client | undefined;
  private stderrTail = '';
  private closedBecause: string | undefined;
  private closing = false;
  private stdio: TrackedStdioTransport | undefined;
  status: ConnectionStatus = 'closed';
  serverInfo: Implementation | undefined;

  constructor(
    readonly spec: McpServerSpec,
    private readonly onToolsChanged: () => void,
    private readonly onClosed: () => void,
    /** The fetch the HTTP transport uses (the host's guarded one); the global fetch when absent. */
    private readonly httpFetch?: FetchLike,
  ) {}

  async open(signal: AbortSignal | undefined, timeoutMs: number): Promise<void> {
    const client = new Client(CLIENT_INFO, {
      listChanged: { tools: { autoRefresh: false, debounceMs: 100, onChanged: () => this.onToolsChanged() } },
    });
    const transport = this.transport();
    client.onclose = () => {
      // For stdio this fires when the program has exited: its pid may be reused from now on.
      this.stdio?.forgetPid();
      this.markClosed(this.closing ? 'disconnected' : 'the server closed the connection');
    };
    this.client = client;
    await withScopedSignal(signal, (scoped) => client.connect(transport, { signal: scoped, timeout: timeoutMs }));
    this.status = 'connected';
    this.serverInfo = client.getServerVersion();
  }

  async listTools(signal: AbortSignal | undefined, timeoutMs: number): Promise<RemoteTool[]> {
    const client = this.live();
    const tools: RemoteTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const params = cursor ? { cursor } : undefined;
      const answer = await withScopedSignal(signal, (scoped) =>
        client.listTools(params, { signal: scoped, timeout: timeoutMs }),
      );
      tools.push(...answer.tools);
      cursor = answer.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  async callTool(name: string, args: Record<string, unknown>, opts: CallOptions): Promise<CallToolResult> {
    const client = this.live();
    const onProgress = opts.onProgress;
    const result = await withScopedSignal(opts.signal, (signal) =>
      client.callTool({ name, arguments: args }, undefined, {
        signal,
        timeout: opts.timeoutMs,
        resetTimeoutOnProgress: true,
        ...(onProgress
          ? { onprogress: (p: { progress: number; total?: number; message?: string }) => onProgress(toUpdate(p)) }
          : {}),
      }),
    );
    return result as CallToolResult;
  }

  /**
   * Ends the session. The SDK closes a program gently (stdin closed, then SIGTERM after 2 s);
   * `force` is for a program that never became a working server: it is killed at once, since
   * the SDK's own close may already be under way on unref'd timers that a host shutting down
   * would never run.
   */
  async close(opts: { force?: boolean } = {}): Promise<void> {
    this.closing = true;
    const client = this.client;
    if (!client) return;
    const transport = client.transport;
    if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
    if (opts.force) this.stdio?.killSpawned();
    await client.close().catch(() => undefined);
    this.stdio?.killSpawned();
    this.markClosed('disconnected');
  }

  /** Why the server is gone, with its last stderr lines if it was a program. */
  get closedReason(): string | undefined {
    if (this.status !== 'closed' || !this.closedBecause) return undefined;
    const tail = this.stderrTail.trim();
    return tail ? `${this.closedBecause}; its last output: ${tail.slice(-500)}` : this.closedBecause;
  }

  get stderr(): string {
    return this.stderrTail;
  }

  private live(): Client {
    if (!this.client || this.status !== 'connected') throw new Error(this.closedReason ?? 'not connected');
    return this.client;
  }

  private markClosed(reason: string): void {
    if (this.status === 'closed' && this.closedBecause) return;
    this.status = 'closed';
    this.closedBecause = reason;
    this.onClosed();
  }

  private transport(): Transport {
    const spec = this.spec;
    if (spec.transport === 'http') {
      return new StreamableHTTPClientTransport(new URL(spec.url), {
        requestInit: { headers: spec.headers },
        ...(this.httpFetch ? { fetch: this.httpFetch } : {}),
      });
    }
    const transport = new TrackedStdioTransport({
      command: spec.command,
      args: spec.args,
      env: spec.env,
      // Piped and kept (the tail only) so a crash can be explained; inheriting would spam the host's own stderr.
      stderr: 'pipe',
      ...(spec.cwd ? { cwd: spec.cwd } : {}),
    });
    this.collectStderr(transport.stderr);
    this.stdio = transport;
    return transport;
  }

  private collectStderr(stream: Stream | null): void {
    stream?.on('data', (chunk: Buffer | string) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL);
    });
  }
}

/** Remembers the pid of the program it started, which the SDK forgets as soon as it begins closing. */
class TrackedStdioTransport extends StdioClientTransport {
  private spawnedPid: number | undefined;

  override async start(): Promise<void> {
    await super.start();
    this.spawnedPid = this.pid ?? undefined;
  }

  forgetPid(): void {
    this.spawnedPid = undefined;
  }

  /** Kills the program this transport started if it has not exited yet; only ever that one pid. */
  killSpawned(): void {
    const pid = this.spawnedPid;
    if (pid === undefined) return;
    try {
      process.kill(pid, 0);
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    this.spawnedPid = undefined;
  }
}

/**
 * The SDK adds an abort listener to the signal of every request and never removes it; a
 * long-lived signal (the executor's never-aborted one, a session's) would collect them forever.
 * Each request gets its own signal, linked to the caller's only while the request runs.
 */
async function withScopedSignal<T>(
  parent: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const forward = () => controller.abort(parent?.reason);
  if (parent?.aborted) forward();
  else parent?.addEventListener('abort', forward, { once: true });
  try {
    return await run(controller.signal);
  } finally {
    parent?.removeEventListener('abort', forward);
  }
}

function toUpdate(p: { progress: number; total?: number; message?: string }): ProgressUpdate {
  return {
    progress: p.progress,
    ...(p.total !== undefined ? { total: p.total } : {}),
    ...(p.message !== undefined ? { message: p.message } : {}),
  };
}
