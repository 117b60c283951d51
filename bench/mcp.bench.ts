/**
 * tools/call round trip through Toolgate (token check, Host/Origin guard, the full v3 pipeline,
 * trace span written to SQLite) against a bare official-SDK server with the same no-op tool,
 * both over Streamable HTTP on loopback with stateful sessions, measured in one run with
 * interleaved rounds. The last line is one JSON object.
 *
 * Run: `npm run bench -- mcp`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { defineTool } from '../tools/core/tool';
import { defineToolset } from '../tools/core/toolset';
import { startHost } from '../tools/host/host';

process.env.TOOLGATE_QUIET = '1';
const ROUNDS = 10;
const CALLS_PER_ROUND = 200;
const args = { name: 'bench', count: 3 };

async function bareServer(): Promise<{ url: string; close(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
      const id = req.headers['mcp-session-id'] as string | undefined;
      let transport = id ? transports.get(id) : undefined;
      if (!transport) {
        const server = new McpServer({ name: 'bare', version: '1.0.0' });
        server.registerTool(
          'bench_noop',
          { description: 'Does nothing.', inputSchema: { name: z.string(), count: z.number().int() } },
          async () => ({ content: [{ type: 'text', text: 'ok' }] }),
        );
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => void transports.set(sid, created),
        });
        transport = created;
        await server.connect(created);
      }
      await transport.handleRequest(req, res, body);
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise((r) => (http.closeAllConnections(), http.close(() => r()))),
  };
}

async function client(url: string, token?: string): Promise<Client> {
  const c = new Client({ name: 'bench', version: '1.0.0' });
  await c.connect(
    new StreamableHTTPClientTransport(
      new URL(url),
      token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {},
    ),
  );
  return c;
}

async function round(c: Client, out: number[]): Promise<void> {
  for (let i = 0; i < CALLS_PER_ROUND; i++) {
    const t0 = performance.now();
    const r = await c.callTool({ name: 'bench_noop', arguments: args });
    out.push(performance.now() - t0);
    if (r.isError) throw new Error(`bench call failed: ${JSON.stringify(r.content)}`);
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? 0;
};

const BENCH_TOOLSET = defineToolset('bench', 'The benchmark tool.');

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-mcp-'));
  const host = await startHost({ dataDir, port: 0, rateLimitPerMinute: { bench_noop: 1e9 } });
  host.registry.register(
    defineTool({
      id: 'bench_noop',
      description: 'Does nothing.',
      input: z.object({ name: z.string().describe('a name'), count: z.number().int().describe('a count') }),
      metadata: { category: 'utility', risk: 'LOW' },
      annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
      run: () => 'ok',
    }),
    'REPLACE',
    BENCH_TOOLSET,
  );
  host.clientTokens.setToolsets('default', [BENCH_TOOLSET.name]);
  const bare = await bareServer();
  const ours = await client(host.address.mcp, host.token);
  const theirs = await client(bare.url);
  const warm: number[] = [];
  await round(ours, warm);
  await round(theirs, warm);
  const toolgate: number[] = [];
  const plain: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which goes first so neither always runs on a warmer machine.
    if (r % 2 === 0) await round(ours, toolgate), await round(theirs, plain);
    else await round(theirs, plain), await round(ours, toolgate);
  }
  const p50 = pct(toolgate, 0.5);
  const p99 = pct(toolgate, 0.99);
  console.log(`calls per side: ${toolgate.length}`);
  console.log(`toolgate  p50 ${p50.toFixed(3)} ms  p99 ${p99.toFixed(3)} ms`);
  console.log(`bare SDK  p50 ${pct(plain, 0.5).toFixed(3)} ms  p99 ${pct(plain, 0.99).toFixed(3)} ms`);
  await ours.close();
  await theirs.close();
  await bare.close();
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
  const ratio = p50 / pct(plain, 0.5);
  console.log(
    JSON.stringify({
      bench: 'mcp',
      ratios: { toolgate_vs_bare: Number(ratio.toFixed(3)) },
      p50ms: Number(p50.toFixed(3)),
      p99ms: Number(p99.toFixed(3)),
    }),
  );
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
