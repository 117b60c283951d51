/**
 * Rule: web_search talks to the configured provider through the documented contract
 * (GET {endpoint}?q=&n= → {results:[{title,url,snippet}]}); without a provider it answers
 * UNSUPPORTED telling the user where to configure one, and never shows the endpoint's key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, networkHarness, textOf } from './harness';
import { type LocalServer, startServer } from './local-http';

let provider: LocalServer;
const asked: string[] = [];

beforeAll(async () => {
  provider = await startServer({
    '/search': (req, res) => {
      const url = new URL(req.url ?? '', 'http://x');
      asked.push(url.search);
      const n = Number(url.searchParams.get('n'));
      const results = Array.from({ length: 10 }, (_, i) => ({
        title: `Result ${i + 1}`,
        url: `https://example.org/${i + 1}`,
        snippet: `About ${url.searchParams.get('q')}`,
      }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ results: results.slice(0, n), echo: url.searchParams.get('key') }));
    },
    '/wrong-shape': (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}'),
    '/down': (_q, res) => res.writeHead(503).end(),
  });
});
afterAll(() => provider.close());

describe('web_search without a usable provider', () => {
  it('answers UNSUPPORTED with a hint naming the setting when no endpoint is configured', async () => {
    const h = networkHarness();
    const error = errorOf(await h.call('web_search', { query: 'toolgate' }));
    expect(error.code).toBe('UNSUPPORTED');
    expect(error.hint).toContain('webSearchEndpoint');
    h.dispose();
  });

  it('reports a provider that breaks the contract as EXECUTION_FAILED', async () => {
    const h = networkHarness({ webSearchEndpoint: `${provider.url}/wrong-shape` });
    const error = errorOf(await h.call('web_search', { query: 'toolgate' }));
    expect(error.code).toBe('EXECUTION_FAILED');
    expect(error.message).toContain('"results"');
    h.dispose();
  });

  it('reports a failing provider with its status and no endpoint key', async () => {
    const h = networkHarness({ webSearchEndpoint: `${provider.url}/down?key=provider-secret-123` });
    const error = errorOf(await h.call('web_search', { query: 'toolgate' }));
    expect(error).toMatchObject({ code: 'EXECUTION_FAILED', data: { status: 503 } });
    expect(JSON.stringify(error)).not.toContain('provider-secret-123');
    h.dispose();
  });

  it('refuses an empty query', async () => {
    const h = networkHarness({ webSearchEndpoint: `${provider.url}/search` });
    expect(errorOf(await h.call('web_search', { query: '   ' })).code).toBe('INVALID_ARGUMENT');
    h.dispose();
  });
});

describe('web_search with a provider', () => {
  it('sends q and n, keeps the endpoint parameters, and lists titles, URLs and snippets', async () => {
    let endpoint = `${provider.url}/search?key=provider-secret-123`;
    const h = networkHarness({ webSearchEndpoint: () => endpoint });
    const result = await h.call('web_search', { query: 'mcp servers', limit: 2 });
    expect(asked.at(-1)).toBe('?key=provider-secret-123&q=mcp+servers&n=2');
    expect(textOf(result)).toBe(
      '1. Result 1\n   https://example.org/1\n   About mcp servers\n2. ' +
        'Result 2\n   https://example.org/2\n   About mcp servers',
    );
    expect(result.ok && result.structured).toEqual({
      query: 'mcp servers',
      results: [
        { title: 'Result 1', url: 'https://example.org/1', snippet: 'About mcp servers' },
        { title: 'Result 2', url: 'https://example.org/2', snippet: 'About mcp servers' },
      ],
    });
    endpoint = '';
    expect(errorOf(await h.call('web_search', { query: 'x' })).code).toBe('UNSUPPORTED');
    h.dispose();
  });
});
