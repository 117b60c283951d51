/**
 * Rule: web_fetch reads only http(s), never hangs (timeout and cancel end the call), never reads
 * more than the byte cap, and gives a model readable text: HTML as text with headings and
 * numbered links, JSON pretty, binary refused. Statuses: 404/410 NOT_FOUND, 5xx EXECUTION_FAILED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorSlug } from '../../tools/core/trace/error-slug';
import { errorOf, type NetworkHarness, networkHarness, textOf } from './harness';
import { type LocalServer, startServer } from './local-http';

const PAGE = [
  '<!doctype html><html><head><title>Release  notes</title><style>body{color:red}</style>',
  '<script>window.secret = "do-not-show"</script></head><body>',
  '<h1>Version 2</h1><p>See <a href="/docs/install">the install guide</a> and ' +
    '<a href="https://example.org/faq">FAQ</a>.</p>',
  '<h2>Changes</h2><ul><li>Faster</li><li>Smaller</li></ul><p>Again <a href="/docs/install">install</a>.</p>' +
    '</body></html>',
].join('\n');

let server: LocalServer;
let h: NetworkHarness;
let requests = 0;

beforeAll(async () => {
  server = await startServer({
    '/page.html': (_q, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE),
    '/data.json': (_q, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"toolgate","tags":["a","b"]}'),
    '/notes.txt': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('line one\nline two'),
    '/long.txt': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('0123456789'.repeat(100)),
    '/big.txt': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(200_000)),
    '/image.png': (_q, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64)),
    '/missing': (_q, res) => res.writeHead(404).end('gone'),
    '/boom': (_q, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('internal'),
    '/loop': (_q, res) => res.writeHead(302, { location: '/loop' }).end(),
    '/to-file': (_q, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
    '/moved': (_q, res) => res.writeHead(301, { location: '/data.json' }).end(),
    '/slow': () => {
      requests++; // never answers
    },
  });
  h = networkHarness({ maxBytes: 64 * 1024 });
});
afterAll(async () => {
  await server.close();
  h.dispose();
});

describe('web_fetch refuses what it must not do', () => {
  it.each(['file:///etc/passwd', 'data:text/plain,hello', 'ftp://example.org/x', 'javascript:alert(1)'])(
    'refuses the non-http URL %s as INVALID_ARGUMENT',
    async (url) => {
      const error = errorOf(await h.call('web_fetch', { url }));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toMatch(/only http and https/);
    },
  );

  it('names the missing url field', async () => {
    const error = errorOf(await h.call('web_fetch', {}));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('"url"');
  });

  it('answers 404 with NOT_FOUND and 500 with EXECUTION_FAILED carrying the status', async () => {
    expect(errorOf(await h.call('web_fetch', { url: `${server.url}/missing` })).code).toBe('NOT_FOUND');
    const error = errorOf(await h.call('web_fetch', { url: `${server.url}/boom` }));
    expect(error.code).toBe('EXECUTION_FAILED');
    expect(error.data).toEqual({ status: 500 });
  });

  it('stops a redirect loop after a bounded number of hops', async () => {
    const error = errorOf(await h.call('web_fetch', { url: `${server.url}/loop` }));
    expect(error.code).toBe('EXECUTION_FAILED');
    expect(error.message).toMatch(/Too many redirects/);
    expect(errorSlug(error)).toBe('too-many-redirects');
  });

  it('refuses to follow a redirect to a file: URL', async () => {
    const error = errorOf(await h.call('web_fetch', { url: `${server.url}/to-file` }));
    expect(error.code).toBe('EXECUTION_FAILED');
    expect(error.message).toContain('file:');
  });

  it('ends a call to a server that never answers with TIMEOUT', async () => {
    const error = errorOf(await h.call('web_fetch', { url: `${server.url}/slow`, timeoutMs: 150 }));
    expect(error.code).toBe('TIMEOUT');
    expect(error.data).toEqual({ timeoutMs: 150 });
  });

  it('ends a call when the caller aborts it, and says it was cancelled', async () => {
    const controller = new AbortController();
    const before = requests;
    const pending = h.call('web_fetch', { url: `${server.url}/slow` }, { signal: controller.signal });
    while (requests === before) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const error = errorOf(await pending);
    expect(error.code).toBe('EXECUTION_FAILED');
    expect(error.message).toMatch(/cancelled/);
    expect(error.data).toMatchObject({ cancelled: true });
  });

  it('refuses binary content as UNSUPPORTED and points to download_file', async () => {
    const error = errorOf(await h.call('web_fetch', { url: `${server.url}/image.png` }));
    expect(error.code).toBe('UNSUPPORTED');
    expect(error.hint).toContain('download_file');
  });

  it('reports a refused connection as EXECUTION_FAILED, traced as connection-refused', async () => {
    const gone = await startServer({});
    await gone.close();
    const error = errorOf(await h.call('web_fetch', { url: `${gone.url}/x` }));
    expect(error.code).toBe('EXECUTION_FAILED');
    expect(error.message).toMatch(/refused/i);
    expect(errorSlug(error)).toBe('connection-refused');
  });

  it('refuses a startChar past the end of the text', async () => {
    const error = errorOf(await h.call('web_fetch', { url: `${server.url}/notes.txt`, startChar: 5000 }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.data?.fields).toEqual(['startChar']);
  });
});

describe('web_fetch gives readable text', () => {
  it('reads no more than the byte cap of a big body and says so', async () => {
    const result = await h.call('web_fetch', { url: `${server.url}/big.txt`, maxChars: 100_000 });
    const text = textOf(result);
    expect(text).toContain('larger than the 65536-byte limit');
    expect(result.ok && (result.structured as { bodyTruncated: boolean; totalChars: number })).toMatchObject({
      bodyTruncated: true,
      totalChars: 65536,
    });
  });

  it('turns HTML into text with the title, # headings and numbered links listed once at the end', async () => {
    const result = await h.call('web_fetch', { url: `${server.url}/page.html` });
    const text = textOf(result);
    expect(text).toContain('Title: Release notes');
    expect(text).toContain('# Version 2');
    expect(text).toContain('## Changes');
    expect(text).toContain('the install guide[1] and FAQ[2]');
    expect(text).toContain('Again install[1]');
    expect(text).toContain(`[1] ${server.url}/docs/install`);
    expect(text).toContain('[2] https://example.org/faq');
    expect(text).not.toContain('do-not-show');
    expect(text).not.toContain('color:red');
    expect(result.ok && (result.structured as { links: string[] }).links).toEqual([
      `${server.url}/docs/install`,
      'https://example.org/faq',
    ]);
  });

  it('pretty-prints JSON', async () => {
    const text = textOf(await h.call('web_fetch', { url: `${server.url}/data.json` }));
    expect(text).toContain('{\n  "name": "toolgate",\n  "tags": [\n    "a",');
  });

  it('follows a redirect and shows the final URL', async () => {
    const text = textOf(await h.call('web_fetch', { url: `${server.url}/moved` }));
    expect(text).toContain(`URL: ${server.url}/data.json`);
    expect(text).toContain('"name": "toolgate"');
  });

  it('returns plain text as is', async () => {
    expect(textOf(await h.call('web_fetch', { url: `${server.url}/notes.txt` }))).toContain('line one\nline two');
  });

  it('returns a long text in windows that a second call continues from startChar', async () => {
    const first = textOf(await h.call('web_fetch', { url: `${server.url}/long.txt`, maxChars: 300 }));
    expect(first).toContain('[Showing characters 0–300 of 1000. Call web_fetch again with startChar=300 to read on.]');
    const last = await h.call('web_fetch', { url: `${server.url}/long.txt`, maxChars: 800, startChar: 300 });
    expect(textOf(last)).toContain('[Showing characters 300–1000 of 1000.]');
    expect(last.ok && last.structured).toMatchObject({ startChar: 300, endChar: 1000, truncated: false });
  });
});
