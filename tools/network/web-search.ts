/**
 * web_search through a configurable provider. The contract a provider (or a small adapter in
 * front of one) implements:
 *
 *   GET {endpoint}?q=<query>&n=<max results>
 *   200 application/json  {"results": [{"title": "...", "url": "https://...", "snippet": "..."}]}
 *
 * Query parameters already in the endpoint (an API key, say) are kept. Without an endpoint the
 * tool answers UNSUPPORTED and tells the user where to set one.
 */
import { z } from 'zod';
import { timeoutMs } from '../core/fields';
import { ToolCallError, failure, success } from '../core/result';
import { defineTool } from '../core/tool';
import { callSignal, decodeText, fetchWithRedirects, networkFailure, readBodyCapped } from './http-fetch';
import { ALLOWED_PROTOCOLS, originOf } from './http-url';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, type NetworkSettings } from './options';
import { scrub, secretValues } from './secrets';

export const SEARCH_NOT_CONFIGURED_HINT =
  'Web search needs a provider: set "webSearchEndpoint" in Settings → Network to a URL that answers GET ' +
  '?q=<query>&n=<count> with {"results":[{"title","url","snippet"}]}. Until then, use web_fetch on a known URL.';

const providerAnswer = z.object({
  results: z.array(
    z.object({
      title: z.string().catch(''),
      url: z.string(),
      snippet: z.string().optional().catch(undefined),
    }),
  ),
});

const input = z.object({
  query: z.string().trim().min(1).max(500),
  limit: z.number().int().min(1).max(20).default(5),
  timeoutMs: timeoutMs(1, MAX_TIMEOUT_MS).default(DEFAULT_TIMEOUT_MS),
});

export function webSearchTool(settings: NetworkSettings) {
  return defineTool({
    id: 'web_search',
    title: 'Web search',
    description: 'Searches the web: titles, URLs and snippets. Read a result with web_fetch.',
    input,
    metadata: { category: 'network', risk: 'LOW' },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: false,
    },
    runPolicy: 'network',
    // The destination is the configured provider, so its breaker follows the endpoint setting.
    breakerScope: () => originOf(settings.searchEndpoint()),
    async run(args, ctx) {
      const configured = settings.searchEndpoint();
      if (!configured)
        return failure('UNSUPPORTED', 'Web search is not configured on this host.', {
          hint: SEARCH_NOT_CONFIGURED_HINT,
        });
      const endpoint = endpointUrl(configured);
      endpoint.searchParams.set('q', args.query);
      endpoint.searchParams.set('n', String(args.limit));
      // The endpoint is the user's configuration and may embed a key: keep all of it out of the output.
      const secrets = [...secretValues({}, endpoint), configured];
      const timer = callSignal(ctx.signal, args.timeoutMs);
      try {
        const { response } = await fetchWithRedirects(
          { url: endpoint, method: 'GET', headers: { accept: 'application/json' } },
          { fetchImpl: settings.fetchImpl, signal: timer.signal },
        );
        const body = await readBodyCapped(response, settings.maxBytes);
        if (!response.ok) {
          throw new ToolCallError('EXECUTION_FAILED', `The search provider answered HTTP ${response.status}.`, {
            hint: 'Retry once later; if it keeps failing, check the webSearchEndpoint setting.',
            data: { status: response.status },
          });
        }
        const parsed = providerAnswer.safeParse(safeJson(decodeText(body.data, response.headers.get('content-type'))));
        if (!parsed.success) {
          throw new ToolCallError(
            'EXECUTION_FAILED',
            'The search provider returned something other than {"results":[{"title","url","snippet"}]}.',
            {
              hint:
                'The configured webSearchEndpoint does not follow the ' +
                'search contract; use web_fetch on a known URL instead.',
            },
          );
        }
        const results = parsed.data.results
          .slice(0, args.limit)
          .map((r) => ({ title: r.title, url: r.url, snippet: r.snippet ?? '' }));
        const text =
          results.length === 0
            ? `No results for "${args.query}".`
            : results
                .map((r, i) => `${i + 1}. ${r.title || r.url}\n   ${r.url}${r.snippet ? `\n   ${r.snippet}` : ''}`)
                .join('\n');
        return success(scrub(text, secrets), { query: args.query, results });
      } catch (e) {
        const failed = networkFailure(e, {
          url: new URL(endpoint.origin),
          timeoutMs: args.timeoutMs,
          cause: timer.cause(),
        });
        throw new ToolCallError(failed.toolErrorCode, scrub(failed.message, secrets), {
          ...(failed.hint ? { hint: failed.hint } : {}),
          ...(failed.data ? { data: failed.data } : {}),
        });
      }
    },
  });
}

function endpointUrl(configured: string): URL {
  try {
    const url = new URL(configured);
    if (ALLOWED_PROTOCOLS.has(url.protocol)) return url;
  } catch {
    // Falls through to the same answer as an unparseable endpoint.
  }
  throw new ToolCallError('UNSUPPORTED', 'The configured web search endpoint is not an http(s) URL.', {
    hint: SEARCH_NOT_CONFIGURED_HINT,
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
