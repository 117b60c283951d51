/**
 * The stdio bridge for MCP hosts that only speak stdio: a stdio MCP server whose tools/list and
 * tools/call are forwarded to the running Toolgate host over Streamable HTTP with the token, so
 * the calls go through the same pipeline. Progress and cancellation are forwarded both ways.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

export interface BridgeOptions {
  mcpUrl: string;
  token: string;
  version: string;
  /** The downstream side; stdio unless a test passes its own transport. */
  downstream?: Transport;
}

export async function runStdioBridge(options: BridgeOptions): Promise<{ close(): Promise<void> }> {
  const upstream = new Client({ name: 'toolgate-stdio-bridge', version: options.version });
  await upstream.connect(
    new StreamableHTTPClientTransport(new URL(options.mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${options.token}` } },
    }),
  );
  const server = new Server(
    { name: 'toolgate', title: 'Toolgate', version: options.version },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async (request) => upstream.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const progressToken = request.params._meta?.progressToken;
    return upstream.request({ method: 'tools/call', params: request.params }, CallToolResultSchema, {
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
  });
  upstream.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    await server.sendToolListChanged().catch(() => undefined);
  });
  await server.connect(options.downstream ?? new StdioServerTransport());
  return {
    async close() {
      await server.close().catch(() => undefined);
      await upstream.close().catch(() => undefined);
    },
  };
}
