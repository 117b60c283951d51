/**
 * The stdio bridge for MCP hosts that only speak stdio: a stdio MCP server whose tools/list and
 * tools/call are forwarded to the running Toolgate host over Streamable HTTP with the token, so
 * the calls go through the same pipeline. Progress and cancellation are forwarded both ways. The
 * caller has made sure the URL is its own host (prove-host.ts) and passes the fetch that keeps it
 * so (own-account-fetch.ts). A call the host cannot answer ends as a tool error, not a protocol one.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  CallToolResultSchema,
  ListToolsRequestSchema,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { failure, renderResult } from '../../core/result';
import { fetchFailure } from './own-account-fetch';

export interface BridgeOptions {
  mcpUrl: string;
  token: string;
  version: string;
  /** How requests reach the host (own-account-fetch.ts); default the global fetch. */
  fetch?: FetchLike;
  /** The downstream side; stdio unless a test passes its own transport. */
  downstream?: Transport;
}

export async function runStdioBridge(options: BridgeOptions): Promise<{ close(): Promise<void> }> {
  const upstream = new Client({ name: 'toolgate-stdio-bridge', version: options.version });
  const transport = new StreamableHTTPClientTransport(new URL(options.mcpUrl), {
    // The host never redirects; a redirect would carry the token somewhere else.
    requestInit: { headers: { authorization: `Bearer ${options.token}` }, redirect: 'error' },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  await upstream.connect(transport);
  const server = new Server(
    { name: 'toolgate', title: 'Toolgate', version: options.version },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async (request) => upstream.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const progressToken = request.params._meta?.progressToken;
    const forwarded = upstream.request({ method: 'tools/call', params: request.params }, CallToolResultSchema, {
      signal: extra.signal,
      timeout: 24 * 60 * 60 * 1000,
      ...(progressToken !== undefined
        ? {
            onprogress: (p) =>
              void extra
                .sendNotification({ method: 'notifications/progress', params: { ...p, progressToken } })
                .catch(() => undefined),
            resetTimeoutOnProgress: true,
          }
        : {}),
    });
    return forwarded.catch((e: unknown) => unanswered(e, extra.signal));
  });
  upstream.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    await server.sendToolListChanged().catch(() => undefined);
  });
  await server.connect(options.downstream ?? new StdioServerTransport());
  return {
    async close() {
      await server.close().catch(() => undefined);
      // Ends the host's session (and what it holds) rather than leaving it to the idle timeout.
      await Promise.race([transport.terminateSession(), new Promise((r) => setTimeout(r, 2000).unref())]).catch(
        () => undefined,
      );
      await upstream.close().catch(() => undefined);
    },
  };
}

/** A call that never got the host's answer (it stopped, or its port is no longer its own) as a tool error. */
function unanswered(e: unknown, signal: AbortSignal): CallToolResult {
  if (signal.aborted || e instanceof McpError) throw e;
  return hostGoneResult(fetchFailure(e));
}

/** The tool error of a call the host did not answer; `why` says what happened to the host. */
export function hostGoneResult(why = 'its socket closed'): CallToolResult {
  const result = failure('EXECUTION_FAILED', `The Toolgate host did not answer: ${why}.`, {
    hint:
      'The Toolgate host may have stopped. Ask the person to start it again (npm run serve, or the Toolgate app), ' +
      'then retry.',
  });
  return {
    isError: true,
    content: [{ type: 'text', text: renderResult(result) }],
    structuredContent: { code: result.error.code, message: result.error.message, hint: result.error.hint },
  };
}
