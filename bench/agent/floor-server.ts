/**
 * The floor under any MCP server's overhead, for the agent benchmark: the SDK's own server with one
 * tool that answers at once (`noop`), on the SDK's own transports, in a process of its own as the
 * others run. `http`: Streamable HTTP (the SDK's Node transport, stateful sessions), its URL
 * printed as a JSON line; `stdio`: stdio. What a call to it costs is what the client, the
 * transport and the processes' wake-ups cost with no tool, no device and no checks.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export const FLOOR_TOOL = 'noop';

function floorServer(): Server {
  const server = new Server({ name: 'mcp-floor', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: FLOOR_TOOL, description: 'Answers at once.', inputSchema: { type: 'object' } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'done' }] }));
  return server;
}

async function serveHttp(): Promise<void> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!transport) {
        const fresh = new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (sid) => void sessions.set(sid, fresh),
        });
        await floorServer().connect(fresh);
        transport = fresh;
      }
      await transport.handleRequest(req, res, body);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ mcp: `http://127.0.0.1:${port}/mcp` })}\n`);
}

if (process.argv[2] === 'http') void serveHttp();
else void floorServer().connect(new StdioServerTransport());
