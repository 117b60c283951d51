/**
 * A person's UI session, opened the way a person opens one: a real HTTP GET of a one-time link the
 * host made (`host.uiLink()`, the `uiLink` of `serve`'s ready line, or `toolgate ui-link`), keeping
 * the cookies it sets. Its `rpc` then calls the contract as the UI page does: session cookie, CSRF
 * header, the UI's own Origin.
 */
import { CSRF_COOKIE, CSRF_HEADER, UI_SESSION_COOKIE } from '../../shared/ui-session';

export interface RpcAnswer {
  status: number;
  body: unknown;
}

export interface PersonSession {
  /** The `cookie` request header a browser holding the session sends. */
  cookie: string;
  csrf: string;
  origin: string;
  /** Calls `/api/rpc/<method>` as the UI page does; `headers` override or add to what it sends. */
  rpc(method: string, input?: unknown, headers?: Record<string, string>): Promise<RpcAnswer>;
}

/** The cookies a `set-cookie` list sets, by name. */
export function cookiesSet(setCookie: readonly string[]): Map<string, string> {
  const jar = new Map<string, string>();
  for (const line of setCookie) {
    const [pair] = line.split(';');
    const eq = pair?.indexOf('=') ?? -1;
    if (pair && eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  return jar;
}

export async function openPersonSession(link: string): Promise<PersonSession> {
  const res = await fetch(link, { redirect: 'manual' });
  if (res.status !== 303) throw new Error(`the link did not open a session: HTTP ${res.status} ${await res.text()}`);
  const jar = cookiesSet(res.headers.getSetCookie());
  const session = jar.get(UI_SESSION_COOKIE);
  const csrf = jar.get(CSRF_COOKIE);
  if (!session || !csrf) throw new Error(`the link set no session cookies: ${res.headers.getSetCookie().join(' | ')}`);
  const origin = new URL(link).origin;
  const cookie = `${UI_SESSION_COOKIE}=${session}; ${CSRF_COOKIE}=${csrf}`;
  return {
    cookie,
    csrf,
    origin,
    async rpc(method, input = {}, headers = {}) {
      const answer = await fetch(`${origin}/api/rpc/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, origin, [CSRF_HEADER]: csrf, ...headers },
        body: JSON.stringify(input),
      });
      const text = await answer.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: answer.status, body };
    },
  };
}
