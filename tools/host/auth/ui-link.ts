/**
 * One-time UI links: `http://127.0.0.1:PORT/session/<nonce>.<expiry>.<mac>`, signed with a key the
 * host draws at each start and keeps in `host.json` (mode 0600). The host prints one when it starts,
 * and `toolgate ui-link` signs a fresh one from `host.json` without talking to the host, so only
 * the account that owns the data dir can make one. A link expires, and the host accepts each nonce
 * once (ui-sessions.ts); a restart draws a new key, which voids every link not yet used.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { UI_LINK_PATH } from '../../../shared/ui-session';

export const UI_LINK_TTL_MS = 15 * 60_000;

export function newLinkKey(): string {
  return randomBytes(32).toString('base64url');
}

function mac(key: string, payload: string): Buffer {
  return createHmac('sha256', Buffer.from(key, 'base64url')).update(`toolgate-ui-link:${payload}`).digest();
}

/** The secret part of a link, valid until `now + ttlMs`. */
export function signLinkSecret(key: string, now = Date.now(), ttlMs = UI_LINK_TTL_MS): string {
  const payload = `${randomBytes(18).toString('base64url')}.${(now + ttlMs).toString(36)}`;
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

export function uiLink(uiBase: string, key: string, now = Date.now(), ttlMs = UI_LINK_TTL_MS): string {
  return new URL(`${UI_LINK_PATH}${signLinkSecret(key, now, ttlMs)}`, uiBase).toString();
}

export type LinkCheck = { ok: true; nonce: string; expiresAt: number } | { ok: false; reason: string };

export function verifyLinkSecret(key: string, secret: string, now = Date.now()): LinkCheck {
  const [nonce, expiry, given, ...rest] = secret.split('.');
  if (!nonce || !expiry || !given || rest.length > 0) return { ok: false, reason: 'not a Toolgate UI link' };
  const expected = mac(key, `${nonce}.${expiry}`);
  const actual = Buffer.from(given, 'base64url');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected))
    return { ok: false, reason: 'not a link of this host run (the host restarted, or the link was altered)' };
  const expiresAt = Number.parseInt(expiry, 36);
  if (!Number.isFinite(expiresAt) || expiresAt <= now) return { ok: false, reason: 'the link has expired' };
  return { ok: true, nonce, expiresAt };
}
