/**
 * The HTTP engine shared by the network tools: redirects followed by hand (bounded, each hop
 * re-checked for scheme, credentials dropped when the origin changes), a per-call timeout joined
 * with the call's AbortSignal, bodies read with a byte cap, and failures turned into codes.
 */
import { ToolCallError, isToolCallError } from '../core/result';
import { ALLOWED_PROTOCOLS } from './http-url';
import { isSecretHeader, redactUrl } from './secrets';

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface RequestPlan {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

export interface FetchOutcome {
  response: Response;
  finalUrl: URL;
  redirects: number;
}

export const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Follows redirects itself instead of `redirect: 'follow'`, because fetch would happily forward
 * to a scheme we refuse and gives no hook to drop an Authorization header on a cross-origin hop.
 */
export async function fetchWithRedirects(
  plan: RequestPlan,
  opts: { fetchImpl: FetchLike; signal: AbortSignal; maxRedirects?: number },
): Promise<FetchOutcome> {
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let current = { ...plan, headers: { ...plan.headers } };
  for (let hop = 0; ; hop++) {
    const response = await opts.fetchImpl(current.url, {
      method: current.method,
      headers: current.headers,
      ...(current.body !== undefined ? { body: current.body } : {}),
      redirect: 'manual',
      signal: opts.signal,
    });
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || !location || maxRedirects === 0) {
      return { response, finalUrl: current.url, redirects: hop };
    }
    await response.body?.cancel().catch(() => undefined);
    if (hop >= maxRedirects) {
      throw new ToolCallError(
        'EXECUTION_FAILED',
        `Too many redirects (more than ${maxRedirects}) starting ` +
          `at ${redactUrl(plan.url)}; the server may be redirecting in a loop.`,
        {
          hint: 'Open the final URL directly if you know it; otherwise this page cannot be fetched.',
          data: { redirects: hop, slug: 'too-many-redirects' },
        },
      );
    }
    const next = resolveLocation(location, current.url);
    current = nextHop(current, next, response.status);
  }
}

function resolveLocation(location: string, base: URL): URL {
  let next: URL;
  try {
    next = new URL(location, base);
  } catch {
    throw new ToolCallError(
      'EXECUTION_FAILED',
      `The server sent a redirect to an invalid location from ${redactUrl(base)}.`,
    );
  }
  if (!ALLOWED_PROTOCOLS.has(next.protocol)) {
    throw new ToolCallError(
      'EXECUTION_FAILED',
      `The server redirected to a ${next.protocol} URL, which is not allowed (only http and https).`,
      {
        hint: 'This resource cannot be fetched with the network tools.',
      },
    );
  }
  return next;
}

/** The request for the next hop, with the method rewrite browsers apply (fetch spec §4.4). */
function nextHop(current: RequestPlan, next: URL, status: number): RequestPlan {
  const headers = { ...current.headers };
  let { method, body } = current;
  if (status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST') {
    method = 'GET';
    body = undefined;
    for (const name of Object.keys(headers))
      if (/^content-(type|length|encoding|language)$/i.test(name)) delete headers[name];
  }
  if (next.origin !== current.url.origin) {
    for (const name of Object.keys(headers)) if (isSecretHeader(name)) delete headers[name];
  }
  return body === undefined ? { url: next, method, headers } : { url: next, method, headers, body };
}

/** The call's signal joined with this call's own timeout; `cause()` says which one fired. */
export function callSignal(
  parent: AbortSignal,
  timeoutMs: number,
): { signal: AbortSignal; cause(): 'timeout' | 'cancelled' | undefined } {
  const timer = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([parent, timer]);
  return {
    signal,
    cause: () => {
      if (parent.aborted) return isTimeoutReason(parent.reason) ? 'timeout' : 'cancelled';
      return timer.aborted ? 'timeout' : undefined;
    },
  };
}

function isTimeoutReason(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
}

/** Anything thrown while fetching or reading, as a ToolCallError with a code the model can act on. */
export function networkFailure(
  e: unknown,
  ctx: { url: URL; timeoutMs: number; cause: 'timeout' | 'cancelled' | undefined },
): ToolCallError {
  const refusal = toolErrorIn(e);
  if (refusal) return refusal;
  const shown = redactUrl(ctx.url);
  if (ctx.cause === 'timeout') {
    return new ToolCallError('TIMEOUT', `No complete response from ${shown} within ${ctx.timeoutMs} ms.`, {
      data: { timeoutMs: ctx.timeoutMs },
    });
  }
  if (ctx.cause === 'cancelled') {
    return new ToolCallError('EXECUTION_FAILED', `The request to ${shown} was cancelled.`, {
      hint: 'The call was cancelled by the caller; do not retry unless asked to.',
    });
  }
  const code = errorCode(e);
  const detail = code ? ` (${code})` : '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new ToolCallError('EXECUTION_FAILED', `The host ${ctx.url.hostname} could not be resolved${detail}.`, {
      hint: 'Check the host name in the URL.',
      data: { slug: 'host-not-found' },
    });
  }
  if (code === 'ECONNREFUSED') {
    return new ToolCallError('EXECUTION_FAILED', `Connection refused by ${ctx.url.host}${detail}.`, {
      hint: 'Check the URL and port, and that the server is running.',
      data: { slug: 'connection-refused' },
    });
  }
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') {
    return new ToolCallError(
      'EXECUTION_FAILED',
      `The connection to ${ctx.url.host} was dropped before the response was complete${detail}.`,
      {
        hint:
          'The server closed the connection early; retry once, and if ' +
          'it happens again the resource is not reachable right now.',
        data: { slug: 'connection-dropped' },
      },
    );
  }
  const message = e instanceof Error ? e.message : String(e);
  return new ToolCallError('EXECUTION_FAILED', `The request to ${shown} failed: ${message}${detail}.`, {
    hint: 'The connection failed or was dropped; retry once if the cause looks transient.',
  });
}

/** Our own refusal, thrown as is or carried as the cause of fetch's "fetch failed" (a connect-time check). */
export function toolErrorIn(e: unknown): ToolCallError | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (isToolCallError(cur)) return cur;
  }
  return undefined;
}

function errorCode(e: unknown): string | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; cur = (cur as { cause?: unknown }).cause, depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/**
 * A non-2xx status where the tool wanted content: 404/410 NOT_FOUND, 401/403 PERMISSION_DENIED, 429 RATE_LIMITED, else
 * EXECUTION_FAILED.
 */
export function statusFailure(response: Response, url: URL): ToolCallError {
  const shown = redactUrl(url);
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (response.status === 404 || response.status === 410) {
    return new ToolCallError('NOT_FOUND', `HTTP ${status}: nothing at ${shown}.`, {
      hint: 'Check the URL; search for the page or go to the site root and follow links.',
      data: { status: response.status },
    });
  }
  if (response.status === 401 || response.status === 403) {
    return new ToolCallError('PERMISSION_DENIED', `HTTP ${status}: ${shown} requires access you do not have.`, {
      data: { status: response.status },
    });
  }
  if (response.status === 429) {
    const retryAfter = response.headers.get('retry-after');
    return new ToolCallError('RATE_LIMITED', `HTTP ${status}: ${shown} is rate limiting requests.`, {
      hint: retryAfter ? `Wait ${retryAfter} seconds before trying again.` : 'Wait before trying again.',
      data: { status: response.status, ...(retryAfter ? { retryAfter } : {}) },
    });
  }
  return new ToolCallError('EXECUTION_FAILED', `HTTP ${status} from ${shown}.`, {
    hint:
      response.status >= 500
        ? 'The server failed; retry once later.'
        : 'The server refused the request; check the URL and parameters.',
    data: { status: response.status },
  });
}

export interface BodyRead {
  data: Buffer;
  /** The body was longer than the cap and reading stopped there. */
  truncated: boolean;
}

/** Reads at most `maxBytes` of a body, then cancels the rest so the connection is not drained for nothing. */
export async function readBodyCapped(response: Response, maxBytes: number): Promise<BodyRead> {
  if (!response.body) return { data: Buffer.alloc(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { data: Buffer.concat(chunks, size), truncated: false };
    const room = maxBytes - size;
    if (value.byteLength > room) {
      chunks.push(Buffer.from(value.buffer, value.byteOffset, room));
      await reader.cancel().catch(() => undefined);
      return { data: Buffer.concat(chunks, maxBytes), truncated: true };
    }
    chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    size += value.byteLength;
  }
}

export type ContentKind = 'html' | 'json' | 'text' | 'other';

export function contentKind(contentType: string | null): ContentKind {
  const mime = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === 'application/json' || mime.endsWith('+json')) return 'json';
  if (
    mime.startsWith('text/') ||
    mime === 'application/xml' ||
    mime.endsWith('+xml') ||
    mime === 'application/javascript'
  )
    return 'text';
  // No content type at all: servers that omit it almost always send text.
  return mime === '' ? 'text' : 'other';
}

/** Decodes with the declared charset; an unknown label falls back to UTF-8 rather than failing the call. */
export function decodeText(data: Buffer, contentType: string | null): string {
  const label = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(data);
  } catch {
    return new TextDecoder('utf-8').decode(data);
  }
}

export function headersToRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}
