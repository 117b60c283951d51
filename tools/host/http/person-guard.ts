/**
 * The person's key to the host ↔ UI contract over HTTP. Every `/api/rpc/*` call and the event
 * socket need an open UI session (its HttpOnly cookie); every call also carries the session's CSRF
 * token in a header and an Origin of the UI's own, which another site's page cannot send. A bearer
 * token on these routes is an MCP client's key and is refused outright: it calls tools at /mcp and
 * decides nothing.
 */
import type { IncomingMessage } from 'node:http';
import { CSRF_COOKIE, CSRF_HEADER, UI_SESSION_COOKIE } from '../../../shared/ui-session';
import type { UiSessions } from '../auth/ui-sessions';
import { type GuardVerdict, checkOrigin, cookieValue } from './request-guard';

export const BEARER_REFUSED =
  "An MCP token calls tools at /mcp and nothing else: the host's UI API (approvals, settings, breakers, tokens, " +
  "every method) needs the person's UI session. Open Toolgate from the link the host printed, or run " +
  '`toolgate ui-link --data-dir DIR`.';
export const NO_SESSION =
  'No UI session: open Toolgate from the one-time link the host printed when it started, or run ' +
  '`toolgate ui-link --data-dir DIR` for a fresh one.';
export const CSRF_REFUSED =
  `The request lacks this UI session's CSRF token (header ${CSRF_HEADER}) or the UI's own Origin; ` +
  'only the Toolgate page itself can call this.';

/** Cookie lifetime in the browser; the host ends a session earlier when it goes unused (ui-sessions.ts). */
const COOKIE_MAX_AGE_S = 30 * 24 * 3600;

export function sessionCookies(sessionId: string, csrf: string): string[] {
  const common = `Path=/; SameSite=Strict; Max-Age=${COOKIE_MAX_AGE_S}`;
  return [`${UI_SESSION_COOKIE}=${sessionId}; ${common}; HttpOnly`, `${CSRF_COOKIE}=${csrf}; ${common}`];
}

export interface PersonCheck {
  sessions: UiSessions;
  port: number;
  /** A call (RPC) needs the CSRF header; the event socket only the session and the Origin. */
  csrf: boolean;
  /** A token passed in the event socket's query string counts as a bearer token. */
  queryToken?: string | null;
}

export function checkPerson(req: IncomingMessage, check: PersonCheck): GuardVerdict {
  if (req.headers.authorization !== undefined || check.queryToken)
    return { ok: false, status: 403, message: BEARER_REFUSED };
  const origin = checkOrigin(req, check.port);
  if (!origin.ok) return origin;
  const sessionId = cookieValue(req, UI_SESSION_COOKIE);
  if (!check.sessions.isOpen(sessionId)) return { ok: false, status: 401, message: NO_SESSION };
  // A browser always sends Origin with a POST and a WebSocket handshake; a request without one is
  // not the UI's page.
  if (req.headers.origin === undefined) return { ok: false, status: 403, message: CSRF_REFUSED };
  if (check.csrf) {
    const header = req.headers[CSRF_HEADER];
    if (!check.sessions.csrfMatches(sessionId, Array.isArray(header) ? header[0] : header))
      return { ok: false, status: 403, message: CSRF_REFUSED };
  }
  return { ok: true };
}
