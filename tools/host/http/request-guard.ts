/**
 * Who may talk to the host. Bound to loopback, and on top of that: a Host header that is not a
 * loopback name is refused (DNS rebinding), an Origin that is not the UI's own is refused, and
 * every MCP request needs a client's bearer token (auth/client-tokens.ts). The UI's routes take the
 * person's session instead (person-guard.ts).
 */
import type { IncomingMessage } from 'node:http';
import type { ClientIdentity, ClientTokens } from '../auth/client-tokens';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

export function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1).toLowerCase();
  return hostHeader.split(':')[0]?.toLowerCase();
}

export function checkHost(req: IncomingMessage): GuardVerdict {
  const name = hostnameOf(req.headers.host);
  if (!name || !LOOPBACK_HOSTS.has(name))
    return { ok: false, status: 403, message: `Host '${req.headers.host ?? ''}' is not a loopback name.` };
  return { ok: true };
}

/** The origins the UI itself is served from. A request without Origin (a non-browser client) passes. */
export function checkOrigin(req: IncomingMessage, port: number, extraOrigins: readonly string[] = []): GuardVerdict {
  const origin = req.headers.origin;
  if (origin === undefined) return { ok: true };
  const own = [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`, ...extraOrigins];
  if (own.includes(origin)) return { ok: true };
  return { ok: false, status: 403, message: `Origin '${origin}' is not allowed.` };
}

export function cookieValue(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

export function bearerOf(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (!auth) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
  return m?.[1]?.trim();
}

export type ClientVerdict = { ok: true; client: ClientIdentity } | { ok: false; status: 401; message: string };

/** The client an MCP request's bearer token names; a missing, wrong or revoked token is a 401. */
export function identifyClient(req: IncomingMessage, clients: ClientTokens): ClientVerdict {
  const given = bearerOf(req);
  if (!given) return { ok: false, status: 401, message: 'Missing bearer token (Authorization: Bearer <token>).' };
  const client = clients.identify(given);
  if (!client) return { ok: false, status: 401, message: 'Invalid or revoked bearer token.' };
  return { ok: true, client };
}

export function firstFailure(...verdicts: Array<() => GuardVerdict>): GuardVerdict {
  for (const v of verdicts) {
    const r = v();
    if (!r.ok) return r;
  }
  return { ok: true };
}
