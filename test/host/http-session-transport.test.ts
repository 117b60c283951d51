/**
 * Rule: the host's Streamable HTTP transport answers as MCP 2025-06-18 says a server may, and loses
 * nothing: a request whose answer is all there is gets one JSON body; a call that sends progress,
 * or is slow to answer, gets an SSE stream that carries everything in order and stays alive with
 * comment lines; a session that ends answers what it left waiting. Requests a client must not send
 * are refused with the status the protocol names. Through the SDK's client over real HTTP, and
 * through raw requests where a client would never err.
 */
import { randomUUID } from 'node:crypto';
import { type Server as HttpServer, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpSessionTransport } from '../../tools/host/mcp/http-session-transport';

const sessions = new Map<string, HttpSessionTransport>();
/** Each session's SDK server, to send what a server sends on its own. */
const servers = new Map<string, Server>();
/** Calls of `hold` waiting for the test to let them answer. */
const held: Array<() => void> = [];
/** Calls the tools handler began. */
let began = 0;
let http: HttpServer;
let url: string;
const clients: Client[] = [];

function sessionServer(): Server {
  const server = new Server(
    { name: 'transport-test', version: '1' },
    { capabilities: { tools: { listChanged: true }, prompts: { listChanged: true } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    began++;
    if (name === 'hold') await new Promise<void>((resolve) => held.push(resolve));
    if (name === 'progress') {
      const progressToken = request.params._meta?.progressToken;
      for (const progress of [1, 2]) {
        if (progressToken !== undefined)
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress } });
      }
    }
    return { content: [{ type: 'text', text: `${name} done` }] };
  });
  return server;
}

beforeAll(async () => {
  http = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => void (raw += d));
    req.on('end', async () => {
      const body = raw ? JSON.parse(raw) : undefined;
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (typeof id === 'string' && !transport) return void res.writeHead(404).end();
      if (!transport) {
        const server = sessionServer();
        const fresh = new HttpSessionTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (sid) => {
            sessions.set(sid, fresh);
            servers.set(sid, server);
          },
          timings: { streamAfterMs: 300, keepAliveMs: 100 },
        });
        await server.connect(fresh);
        transport = fresh;
      }
      await transport.handleRequest(req, res, body);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterEach(() => {
  for (const release of held.splice(0)) release();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

/** A client, and every response's content type it received, in order. */
async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport; types: string[] }> {
  const types: string[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: async (input, init) => {
      const r = await fetch(input, init);
      if ((init?.method ?? 'GET') === 'POST') types.push(r.headers.get('content-type') ?? '');
      return r;
    },
  });
  const client = new Client({ name: 'transport-test-client', version: '1' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport, types };
}

const headersOf = (sessionId: string | undefined, extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION } : {}),
  ...extra,
});

function rawPost(sessionId: string | undefined, body: unknown, extra: Record<string, string> = {}) {
  return fetch(url, { method: 'POST', headers: headersOf(sessionId, extra), body: JSON.stringify(body) });
}

const callBody = (name: string, id = 7) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name } });

/** A session a raw client initialized; its id. */
async function rawSession(): Promise<string> {
  const initialized = await rawPost(undefined, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  await initialized.text();
  return initialized.headers.get('mcp-session-id')!;
}

/** The session's GET stream, read until what arrived so far satisfies `done`. */
async function openStream(sessionId: string) {
  const response = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId } });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    contentType: response.headers.get('content-type'),
    async readUntil(done: (text: string) => boolean): Promise<string> {
      while (!done(text)) text += decoder.decode((await reader.read()).value);
      return text;
    },
    close: () => reader.cancel(),
  };
}

describe('a quick answer', () => {
  it('is one JSON body with its length, and the client reads it', async () => {
    const { client, types } = await connect();
    const r = await client.callTool({ name: 'echo' });
    expect(r.content).toEqual([{ type: 'text', text: 'echo done' }]);
    expect(types.at(-1)).toBe('application/json');
  });

  it('carries the session id, and a notification alone gets 202 with no body', async () => {
    const { transport } = await connect();
    const r = await rawPost(transport.sessionId, callBody('echo'));
    expect(r.headers.get('mcp-session-id')).toBe(transport.sessionId);
    expect(Number(r.headers.get('content-length'))).toBe((await r.clone().arrayBuffer()).byteLength);
    expect(await r.json()).toMatchObject({ id: 7, result: { content: [{ text: 'echo done' }] } });
    const n = await rawPost(transport.sessionId, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    expect(n.status).toBe(202);
    expect(await n.text()).toBe('');
  });
});

describe('a call that sends progress', () => {
  it('becomes an SSE stream: every progress notification arrives, before the answer', async () => {
    const { client, types } = await connect();
    const seen: number[] = [];
    const r = await client.callTool({ name: 'progress' }, undefined, { onprogress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([1, 2]);
    expect(r.content).toEqual([{ type: 'text', text: 'progress done' }]);
    expect(types.at(-1)).toBe('text/event-stream');
  });
});

describe('a call slow to answer', () => {
  it('becomes an SSE stream kept alive with comment lines, and its answer still arrives', async () => {
    const { transport } = await connect();
    const response = await rawPost(transport.sessionId, callBody('hold', 9));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    const decoder = new TextDecoder();
    while ((text.match(/: waiting/g) ?? []).length < 3) text += decoder.decode((await reader.read()).value);
    for (const release of held.splice(0)) release();
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value);
    const events = text.split('\n').filter((l) => l.startsWith('data: '));
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.slice(6))).toMatchObject({ id: 9, result: { content: [{ text: 'hold done' }] } });
  });

  it('through the SDK client, is answered like a quick one', async () => {
    const { client, types } = await connect();
    const call = client.callTool({ name: 'hold' });
    await expect.poll(() => held.length).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    held.shift()!();
    expect((await call).content).toEqual([{ type: 'text', text: 'hold done' }]);
    expect(types.at(-1)).toBe('text/event-stream');
  });
});

describe("the session's GET stream", () => {
  it('stays alive with comment lines and carries what the server sends on its own', async () => {
    const id = await rawSession();
    const stream = await openStream(id);
    expect(stream.contentType).toBe('text/event-stream');
    await stream.readUntil((text) => (text.match(/: waiting/g) ?? []).length >= 3);
    await servers.get(id)!.sendToolListChanged();
    const text = await stream.readUntil((t) => t.includes('list_changed'));
    expect(text).toContain('data: {"method":"notifications/tools/list_changed","jsonrpc":"2.0"}');
    await stream.close();
  });
});

describe('a list change before the GET stream opens', () => {
  it('is held, once per kind, and sent when the client opens its stream', async () => {
    const id = await rawSession();
    // The server changes its tools twice and its prompts once before the client's GET stream exists.
    await servers.get(id)!.sendToolListChanged();
    await servers.get(id)!.sendToolListChanged();
    await servers.get(id)!.sendPromptListChanged();
    const stream = await openStream(id);
    const text = await stream.readUntil((t) => t.includes('prompts/list_changed') && t.includes(': waiting'));
    const events = text.split('\n').filter((l) => l.startsWith('data: '));
    expect(events).toEqual([
      'data: {"method":"notifications/tools/list_changed","jsonrpc":"2.0"}',
      'data: {"method":"notifications/prompts/list_changed","jsonrpc":"2.0"}',
    ]);
    await stream.close();
  });
});

describe('a session that ends', () => {
  it('answers the requests it left waiting with an error instead of leaving them open', async () => {
    const { transport } = await connect();
    const waiting = rawPost(transport.sessionId, callBody('hold', 11));
    await expect.poll(() => held.length).toBe(1);
    await sessions.get(transport.sessionId!)!.close();
    const text = await (await waiting).text();
    const answer = JSON.parse(text.startsWith('{') ? text : text.split('data: ')[1]!);
    expect(answer).toMatchObject({
      id: 11,
      error: { code: -32001, message: expect.stringContaining('session ended') },
    });
  });

  it('on DELETE refuses every later request of the session', async () => {
    const { transport } = await connect();
    const id = transport.sessionId!;
    const d = await fetch(url, { method: 'DELETE', headers: headersOf(id) });
    expect(d.status).toBe(200);
    const later = await rawPost(id, callBody('echo'));
    expect(later.status).toBe(404);
  });
});

describe('requests a client must not send', () => {
  it('are refused with the status the protocol names, and run nothing', async () => {
    const { transport } = await connect();
    const id = transport.sessionId!;
    const before = began;
    const cases: Array<[string, Promise<Response>, number]> = [
      ['no text/event-stream in Accept', rawPost(id, callBody('echo'), { accept: 'application/json' }), 406],
      ['a body that is not JSON', rawPost(id, callBody('echo'), { 'content-type': 'text/plain' }), 415],
      ['not a JSON-RPC message', rawPost(id, { hello: 'world' }), 400],
      ['an empty batch', rawPost(id, []), 400],
      ['a second initialize', rawPost(id, { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }), 400],
      ['an unknown protocol version', rawPost(id, callBody('echo'), { 'mcp-protocol-version': '1999-01-01' }), 400],
      ['a request before initialize', rawPost(undefined, callBody('echo')), 400],
      ['a method HTTP does not serve', fetch(url, { method: 'PUT', headers: headersOf(id), body: '{}' }), 405],
    ];
    for (const [what, response, status] of cases) {
      const r = await response;
      expect({ what, status: r.status }).toEqual({ what, status });
      expect((await r.json()) as object).toMatchObject({ jsonrpc: '2.0', error: { message: expect.any(String) } });
    }
    expect(began).toBe(before);
  });

  it('a second GET stream of one session is refused with 409', async () => {
    const { transport } = await connect();
    const headers = { accept: 'text/event-stream', 'mcp-session-id': transport.sessionId! };
    // The SDK client opened the session's GET stream after initialize; wait for it to be there.
    await expect
      .poll(async () => {
        const r = await fetch(url, { method: 'GET', headers });
        if (r.status === 200) await r.body?.cancel();
        return r.status;
      })
      .toBe(409);
  });
});
