/**
 * Secret headers (Authorization, Cookie, API keys…) must never come back in a tool's output: not
 * in the echoed request, not in an error message, not even when a server reflects them in its
 * response body. The pipeline only digests arguments; this module keeps the tool's own text clean.
 */

export const REDACTED = '[redacted]';

const EXACT_SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'apikey',
  'x-auth-token',
  'x-access-token',
  'x-csrf-token',
  'x-xsrf-token',
  'private-token',
]);

/** Names that look like they carry a credential: `X-Goog-Api-Key`, `X-Session-Token`, `X-Client-Secret`… */
const SECRET_NAME =
  /(^|[-_])(api[-_]?key|key|token|secret|password|passwd|auth|credentials?|session|signature)([-_]|$)/i;

export function isSecretHeader(name: string): boolean {
  const lower = name.trim().toLowerCase();
  return EXACT_SECRET_HEADERS.has(lower) || SECRET_NAME.test(lower);
}

/** Query parameters that commonly carry credentials (`?api_key=…`, `?access_token=…`). */
export function isSecretParam(name: string): boolean {
  return SECRET_NAME.test(name.trim().toLowerCase());
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = isSecretHeader(name) ? REDACTED : value;
  return out;
}

/** A URL fit to show: no password in the user-info, no credential-looking query values. */
export function redactUrl(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password) copy.password = 'redacted';
  for (const name of [...copy.searchParams.keys()]) if (isSecretParam(name)) copy.searchParams.set(name, 'redacted');
  return copy.href;
}

/** `redactUrl` for an address given as text (a setting); undefined when the text is not a URL. */
export function redactUrlText(text: string): string | undefined {
  return URL.canParse(text) ? redactUrl(new URL(text)) : undefined;
}

/**
 * The secret strings a request carries, so any output can be scrubbed of them. For
 * `Authorization: Bearer abc` both the whole value and the credential after the scheme count.
 */
export function secretValues(headers: Record<string, string>, url?: URL): string[] {
  const values = new Set<string>();
  const add = (v: string) => {
    const trimmed = v.trim();
    // Very short values would scrub ordinary words out of the body; they are not credentials anyway.
    if (trimmed.length >= 6) values.add(trimmed);
  };
  for (const [name, value] of Object.entries(headers)) {
    if (!isSecretHeader(name)) continue;
    add(value);
    const credential = /^\s*[A-Za-z][\w-]*\s+(\S.*)$/.exec(value)?.[1];
    if (credential) add(credential);
    // Cookie: each cookie's value on its own, since servers often echo one cookie back.
    for (const pair of value.split(';')) {
      const v = pair.split('=').slice(1).join('=');
      if (v) add(v);
    }
  }
  if (url) {
    if (url.password) add(decodeURIComponent(url.password));
    for (const [name, value] of url.searchParams) if (isSecretParam(name)) add(value);
  }
  // Longest first, so a value is replaced before a shorter value it contains.
  return [...values].sort((a, b) => b.length - a.length);
}

export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** The same scrub over every string inside a JSON-like value (the structured part of a result). */
export function scrubValue<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrub(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
