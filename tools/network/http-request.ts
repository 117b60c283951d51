/**
 * http_request: any method, headers and body; every HTTP status is a result (a 404 from an API is
 * an answer the model asked for, unlike web_fetch where it means "no page"). Only failures to get
 * a response at all (refused, dropped, timeout, redirect loop) are errors. Credentials in headers
 * or the URL are sent but scrubbed from everything the tool returns, including a body that echoes them.
 */
import { z } from 'zod';
import { HTTP_URL, timeoutMs } from '../core/fields';
import { ToolCallError, success } from '../core/result';
import { defineTool } from '../core/tool';
import {
  callSignal,
  contentKind,
  decodeText,
  fetchWithRedirects,
  headersToRecord,
  networkFailure,
  readBodyCapped,
} from './http-fetch';
import { originOf } from './http-url';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, type NetworkSettings } from './options';
import { hasHeader, headersInput } from './request-headers';
import { openRequest } from './request-opening';
import { redactHeaders, redactUrl, scrub, scrubValue } from './secrets';
import { bytesNote, textWindow } from './text-window';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

const input = z.object({
  url: HTTP_URL,
  method: z.enum(METHODS).default('GET'),
  headers: headersInput,
  body: z
    .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())])
    .optional()
    .describe('A string as is, an object or array as JSON.'),
  followRedirects: z.boolean().default(true).describe('Up to 5; false returns the 3xx itself.'),
  maxChars: z.number().int().min(200).max(100_000).default(20_000).describe('Of the response body.'),
  timeoutMs: timeoutMs(1, MAX_TIMEOUT_MS).default(DEFAULT_TIMEOUT_MS),
});

export function httpRequestTool(settings: NetworkSettings) {
  return defineTool({
    id: 'http_request',
    title: 'HTTP request',
    description: 'Sends an HTTP request and returns status, headers and body; a 4xx or 5xx is a result, not an error.',
    input,
    metadata: { category: 'network', risk: 'MEDIUM' },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: true,
    },
    runPolicy: 'mutating',
    breakerScope: (args) => originOf(args.url),
    async run(args, ctx) {
      const { given, url, headers, secrets } = openRequest(args.url, args.headers);
      const body = requestBody(args.method, args.body, headers);
      const timer = callSignal(ctx.signal, args.timeoutMs);
      try {
        const plan = { url, method: args.method, headers, ...(body !== undefined ? { body } : {}) };
        const { response, finalUrl, redirects } = await fetchWithRedirects(plan, {
          fetchImpl: settings.fetchImpl,
          signal: timer.signal,
          maxRedirects: args.followRedirects ? undefined : 0,
        });
        const read =
          args.method === 'HEAD'
            ? { data: Buffer.alloc(0), truncated: false }
            : await readBodyCapped(response, settings.maxBytes);
        const contentType = response.headers.get('content-type');
        const shownBody = bodyText(read.data, contentType);
        const window = textWindow(
          shownBody,
          0,
          args.maxChars,
          () => 'Raise maxChars or ask the server for a narrower resource to see the rest.',
        );
        const responseHeaders = redactHeaders(headersToRecord(response.headers));
        const request = { method: args.method, url: redactUrl(given), headers: redactHeaders(headers) };
        const statusLine = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
        const redirected =
          redirects > 0 ? ` (after ${redirects} redirect${redirects > 1 ? 's' : ''}, at ${redactUrl(finalUrl)})` : '';
        const text = [
          `${request.method} ${request.url} → ${statusLine}${redirected}`,
          ...(Object.keys(request.headers).length > 0
            ? ['Request headers:', ...Object.entries(request.headers).map(([n, v]) => `  ${n}: ${v}`)]
            : []),
          'Response headers:',
          ...Object.entries(responseHeaders).map(([n, v]) => `  ${n}: ${v}`),
          '',
          read.data.length > 0 ? `Body (${read.data.length} bytes):` : 'Body: (empty)',
          ...(window.text ? [window.text] : []),
          ...(window.note ? ['', window.note] : []),
          ...(read.truncated ? ['', bytesNote(read.data.length, settings.maxBytes)] : []),
        ].join('\n');
        const structured = {
          request,
          status: response.status,
          statusText: response.statusText,
          url: redactUrl(finalUrl),
          redirects,
          headers: responseHeaders,
          body: window.text,
          bodyBytes: read.data.length,
          truncated: read.truncated || window.end < window.total,
        };
        return success(scrub(text, secrets), scrubValue(structured, secrets));
      } catch (e) {
        throw networkFailure(e, { url, timeoutMs: args.timeoutMs, cause: timer.cause() });
      }
    },
  });
}

function requestBody(method: string, body: unknown, headers: Record<string, string>): string | undefined {
  if (body === undefined) return undefined;
  if (method === 'GET' || method === 'HEAD') {
    throw new ToolCallError('INVALID_ARGUMENT', `Invalid arguments: a ${method} request cannot have a body.`, {
      hint: 'Drop the body, or use POST/PUT/PATCH to send one.',
      data: { fields: ['body'] },
    });
  }
  if (typeof body === 'string') return body;
  if (!hasHeader(headers, 'content-type')) headers['Content-Type'] = 'application/json';
  return JSON.stringify(body);
}

function bodyText(data: Buffer, contentType: string | null): string {
  if (data.length === 0) return '';
  const kind = contentKind(contentType);
  if (kind === 'other')
    return `[${data.length} bytes of ${contentType} not shown; use download_file to save binary content.]`;
  const text = decodeText(data, contentType);
  if (kind !== 'json') return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
