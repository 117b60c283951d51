/**
 * Only http and https leave the host. file:, data:, ftp:, javascript: and friends would read local
 * files or run nothing useful, so they are refused as bad arguments before any I/O.
 */
import { ToolCallError } from '../core/result';

export const ALLOWED_PROTOCOLS = new Set(['http:', 'https:']);

export function parseHttpUrl(raw: string, field = 'url'): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ToolCallError('INVALID_ARGUMENT', `Invalid arguments: "${field}" is not an absolute URL.`, {
      hint: 'Give a full URL starting with http:// or https://, e.g. https://example.com/page.',
      data: { fields: [field] },
    });
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) {
    throw new ToolCallError(
      'INVALID_ARGUMENT',
      `Invalid arguments: "${field}" uses the ${url.protocol} scheme; only http and https are allowed.`,
      {
        hint: 'Use an http:// or https:// URL. To read a local file, use the files tools instead.',
        data: { fields: [field] },
      },
    );
  }
  return url;
}

/**
 * fetch refuses URLs with user-info (`https://user:pass@host/`); like curl, turn it into a Basic
 * Authorization header so such URLs still work, and keep the credential out of the URL we show.
 */
export function splitCredentials(url: URL): { url: URL; authorization: string | undefined } {
  if (!url.username && !url.password) return { url, authorization: undefined };
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  return { url: bare, authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` };
}

/**
 * The origin (`https://host:port`) a URL text names, which is what the network tools keep one
 * breaker per: a dead host pauses calls to it, not to every host. undefined for anything that is
 * not an http(s) URL (such a call is refused as a bad argument, which no breaker counts).
 */
export function originOf(raw: string | undefined): string | undefined {
  if (!raw || !URL.canParse(raw.trim())) return undefined;
  const url = new URL(raw.trim());
  return ALLOWED_PROTOCOLS.has(url.protocol) ? url.origin : undefined;
}
