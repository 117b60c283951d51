/**
 * Rule: http_request sends what the model asks and returns every HTTP status as a result, but a
 * credential (Authorization, Cookie, X-Api-Key, URL user-info) never comes back in its output,
 * even when the server echoes it, and is not forwarded to another origin on a redirect.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolResult } from '../../tools/core/result';
import { errorOf, type NetworkHarness, networkHarness, textOf } from './harness';
import { type LocalServer, startServer } from './local-http';

const SECRET = 'Bearer sk-live-4f9a8b7c6d5e';
const API_KEY = 'key-0123456789abcdef';
const COOKIE = 'session=cookie-value-9876';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}
const seen: Seen[] = [];
const echo = (req: IncomingMessage, res: ServerResponse, body: string) => {
  seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
  res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'sid=server-session-secret' });
  res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
};

let main: LocalServer;
let other: LocalServer;
let h: NetworkHarness;

beforeAll(async () => {
  other = await startServer({ '/echo': echo });
  main = await startServer({
    '/echo': echo,
    '/missing': (_q, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such user"}'),
    '/boom': (_q, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('database down'),
    '/same-origin-hop': (_q, res) => res.writeHead(307, { location: '/echo' }).end(),
    '/cross-origin-hop': (_q, res) => res.writeHead(307, { location: `${other.url}/echo` }).end(),
    '/see-other': (_q, res) => res.writeHead(303, { location: '/echo' }).end(),
    '/loop': (_q, res) => res.writeHead(302, { location: '/loop' }).end(),
    '/binary': (_q, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(300)),
    '/big': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('y'.repeat(100_000)),
    '/slow': () => undefined,
  });
  h = networkHarness({ maxBytes: 32 * 1024 });
});
afterAll(async () => {
  await main.close();
  await other.close();
  h.dispose();
});

function everything(result: ToolResult): string {
  return JSON.stringify(result);
}

describe('http_request refuses bad requests before sending', () => {
  it('refuses a body on a GET', async () => {
    const error = errorOf(await h.call('http_request', { url: `${main.url}/echo`, body: 'x' }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.data?.fields).toEqual(['body']);
  });

  it('refuses a header value with a line break without quoting the value', async () => {
    const error = errorOf(
      await h.call('http_request', {
        url: `${main.url}/echo`,
        headers: { Authorization: `${SECRET}\r\nX-Injected: 1` },
      }),
    );
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.data?.fields).toEqual(['headers.Authorization']);
    expect(JSON.stringify(error)).not.toContain('sk-live');
  });

  it('refuses headers the HTTP client computes itself', async () => {
    const error = errorOf(await h.call('http_request', { url: `${main.url}/echo`, headers: { Host: 'evil.example' } }));
    expect(error.code).toBe('INVALID_ARGUMENT');
  });

  it('refuses a file: URL', async () => {
    expect(errorOf(await h.call('http_request', { url: 'file:///etc/hosts' })).code).toBe('INVALID_ARGUMENT');
  });

  it('ends with TIMEOUT when the server never answers', async () => {
    expect(errorOf(await h.call('http_request', { url: `${main.url}/slow`, timeoutMs: 100 })).code).toBe('TIMEOUT');
  });

  it('ends a redirect loop with EXECUTION_FAILED', async () => {
    expect(errorOf(await h.call('http_request', { url: `${main.url}/loop` })).code).toBe('EXECUTION_FAILED');
  });
});

describe('http_request never shows a credential back', () => {
  it('sends Authorization, X-Api-Key and Cookie but scrubs them from the echoed request and body', async () => {
    seen.length = 0;
    const result = await h.call('http_request', {
      url: `${main.url}/echo`,
      method: 'POST',
      headers: { Authorization: SECRET, 'X-Api-Key': API_KEY, Cookie: COOKIE, Accept: 'application/json' },
      body: { note: 'hello' },
    });
    expect(seen[0]?.headers.authorization).toBe(SECRET);
    expect(seen[0]?.headers['x-api-key']).toBe(API_KEY);
    const all = everything(result);
    for (const secret of ['sk-live-4f9a8b7c6d5e', API_KEY, 'cookie-value-9876', 'server-session-secret'])
      expect(all).not.toContain(secret);
    expect(textOf(result)).toContain('Authorization: [redacted]');
    expect(textOf(result)).toContain('Accept: application/json');
    const structured = result.ok ? (result.structured as { request: { headers: Record<string, string> } }) : undefined;
    expect(structured?.request.headers).toEqual({
      Authorization: '[redacted]',
      'X-Api-Key': '[redacted]',
      Cookie: '[redacted]',
      Accept: 'application/json',
      'Content-Type': 'application/json',
    });
  });

  it('keeps a password in the URL out of the output while sending it as Basic auth', async () => {
    seen.length = 0;
    const url = main.url.replace('http://', 'http://robot:hunter2-password@');
    const result = await h.call('http_request', { url: `${url}/echo?api_key=qwerty-123456&page=2` });
    expect(seen[0]?.headers.authorization).toBe(`Basic ${Buffer.from('robot:hunter2-password').toString('base64')}`);
    const all = everything(result);
    expect(all).not.toContain('hunter2-password');
    expect(all).not.toContain('qwerty-123456');
    expect(all).not.toContain(Buffer.from('robot:hunter2-password').toString('base64'));
    expect(all).toContain('page=2');
  });

  it('keeps Authorization on a same-origin redirect and drops it on a cross-origin one', async () => {
    seen.length = 0;
    await h.call('http_request', { url: `${main.url}/same-origin-hop`, headers: { Authorization: SECRET } });
    await h.call('http_request', { url: `${main.url}/cross-origin-hop`, headers: { Authorization: SECRET } });
    expect(seen.map((s) => s.headers.authorization)).toEqual([SECRET, undefined]);
  });
});

describe('http_request returns what the server answered', () => {
  it('returns 404 and 500 as results with their status, since for an API they are answers', async () => {
    const missing = await h.call('http_request', { url: `${main.url}/missing` });
    expect(missing.ok && missing.structured).toMatchObject({ status: 404 });
    expect(textOf(missing)).toContain('"error": "no such user"');
    const boom = await h.call('http_request', { url: `${main.url}/boom` });
    expect(boom.ok && boom.structured).toMatchObject({ status: 500, body: 'database down' });
  });

  it('sends an object body as JSON and a string body as is', async () => {
    seen.length = 0;
    await h.call('http_request', { url: `${main.url}/echo`, method: 'PUT', body: { a: [1, 2] } });
    await h.call('http_request', {
      url: `${main.url}/echo`,
      method: 'POST',
      body: 'a=1&b=2',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(seen.map((s) => [s.method, s.headers['content-type'], s.body])).toEqual([
      ['PUT', 'application/json', '{"a":[1,2]}'],
      ['POST', 'application/x-www-form-urlencoded', 'a=1&b=2'],
    ]);
  });

  it('turns a POST into a GET on 303 See Other', async () => {
    seen.length = 0;
    const result = await h.call('http_request', { url: `${main.url}/see-other`, method: 'POST', body: 'x' });
    expect(seen.map((s) => [s.method, s.body])).toEqual([['GET', '']]);
    expect(result.ok && result.structured).toMatchObject({ status: 200, redirects: 1 });
  });

  it('returns the redirect itself when followRedirects is false', async () => {
    const result = await h.call('http_request', { url: `${main.url}/same-origin-hop`, followRedirects: false });
    expect(result.ok && result.structured).toMatchObject({ status: 307, headers: { location: '/echo' } });
  });

  it('answers HEAD without a body', async () => {
    expect(textOf(await h.call('http_request', { url: `${main.url}/echo`, method: 'HEAD' }))).toContain(
      'Body: (empty)',
    );
  });

  it('summarises a binary body instead of dumping it', async () => {
    expect(textOf(await h.call('http_request', { url: `${main.url}/binary` }))).toContain(
      '[300 bytes of application/octet-stream not shown',
    );
  });

  it('reads no more than the byte cap and marks the body truncated', async () => {
    const result = await h.call('http_request', { url: `${main.url}/big`, maxChars: 100_000 });
    expect(result.ok && result.structured).toMatchObject({ bodyBytes: 32 * 1024, truncated: true });
    expect(textOf(result)).toContain('larger than the 32768-byte limit');
  });
});
