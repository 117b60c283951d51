/**
 * A real MCP server over Streamable HTTP on 127.0.0.1:0 (SDK McpServer + StreamableHTTPServerTransport,
 * stateless: a fresh server and transport per request). Requires an x-api-key header.
 */
import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export const HTTP_API_KEY = 'http-fixture-key-123456';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'fixture-http', version: '0.9.0' });
  server.registerTool(
    'greet',
    { description: 'Greet someone.', inputSchema: { name: z.string() }, annotations: { readOnlyHint: true } },
    async ({ name }) => ({
      content: [{ type: 'text', text: `hello ${name}` }],
    }),
  );
  server.registerTool('undeclared', { description: 'Declares no annotations at all.' }, async () => ({
    content: [{ type: 'text', text: 'done' }],
  }));
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export async function startMcpHttpServer(): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  let requests = 0;
  const http = createServer(async (req, res) => {
    requests++;
    if (req.headers['x-api-key'] !== HTTP_API_KEY) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"missing api key"}');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const server = buildServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, await readJson(req));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
