/**
 * A person's credential in headless mode: a UI session opened from a one-time link (ui-link.ts).
 * Redeeming a link gives a random session id (the HttpOnly cookie) and its CSRF token, derived
 * from the id so nothing more is stored; each link opens one session, once. Sessions are kept as
 * digests in SQLite, so an open page survives a host restart, and end after a week unused or a
 * month in all. No MCP token can open one: only the account that owns the data dir signs links.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { UiSessionStore } from '../store/ui-session-store';
import { UI_LINK_TTL_MS, uiLink, verifyLinkSecret } from './ui-link';

export interface UiSessionsOptions {
  linkKey: string;
  now?: () => number;
  /** A session unused for this long ends; default 7 days. */
  idleMs?: number;
  /** A session ends this long after it opened, however used; default 30 days. */
  maxAgeMs?: number;
}

interface OpenSession {
  createdAt: number;
  lastSeen: number;
  /** When lastSeen was last written to the database (written at most once a minute). */
  storedSeen: number;
}

export type Redeemed = { ok: true; sessionId: string; csrf: string } | { ok: false; reason: string };

const digest = (id: string): string => createHash('sha256').update(id).digest('hex');
const TOUCH_WRITE_MS = 60_000;

export class UiSessions {
  private readonly open = new Map<string, OpenSession>();
  private readonly usedNonces = new Map<string, number>();
  private readonly now: () => number;
  private readonly idleMs: number;
  private readonly maxAgeMs: number;

  constructor(
    private readonly store: UiSessionStore,
    private readonly options: UiSessionsOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.idleMs = options.idleMs ?? 7 * 24 * 3_600_000;
    this.maxAgeMs = options.maxAgeMs ?? 30 * 24 * 3_600_000;
    for (const row of store.all()) {
      const session = { createdAt: row.createdAt, lastSeen: row.lastSeen, storedSeen: row.lastSeen };
      if (this.expired(session)) store.remove(row.idHash);
      else this.open.set(row.idHash, session);
    }
  }

  /** A fresh one-time link to the UI at `uiBase`. */
  link(uiBase: string, ttlMs = UI_LINK_TTL_MS): string {
    return uiLink(uiBase, this.options.linkKey, this.now(), ttlMs);
  }

  /** Opens a session for a link's secret; a second use of the same link is refused. */
  redeem(secret: string): Redeemed {
    const now = this.now();
    for (const [nonce, expiresAt] of this.usedNonces) if (expiresAt <= now) this.usedNonces.delete(nonce);
    const check = verifyLinkSecret(this.options.linkKey, secret, now);
    if (!check.ok) return check;
    if (this.usedNonces.has(check.nonce)) return { ok: false, reason: 'the link was already used' };
    this.usedNonces.set(check.nonce, check.expiresAt);
    const sessionId = randomBytes(32).toString('base64url');
    const idHash = digest(sessionId);
    this.open.set(idHash, { createdAt: now, lastSeen: now, storedSeen: now });
    this.store.insert({ idHash, createdAt: now, lastSeen: now });
    return { ok: true, sessionId, csrf: this.csrfFor(sessionId) };
  }

  /** Whether a cookie's session is open; using it keeps it open. */
  isOpen(sessionId: string | undefined): sessionId is string {
    if (!sessionId) return false;
    const idHash = digest(sessionId);
    const session = this.open.get(idHash);
    if (!session) return false;
    if (this.expired(session)) {
      this.open.delete(idHash);
      this.store.remove(idHash);
      return false;
    }
    session.lastSeen = this.now();
    if (session.lastSeen - session.storedSeen > TOUCH_WRITE_MS) {
      session.storedSeen = session.lastSeen;
      this.store.touch(idHash, session.lastSeen);
    }
    return true;
  }

  /** The session's CSRF token: the page reads it from its cookie and sends it with every call. */
  csrfFor(sessionId: string): string {
    return createHmac('sha256', sessionId).update('toolgate-ui-csrf').digest('base64url');
  }

  csrfMatches(sessionId: string, given: string | undefined): boolean {
    if (!given) return false;
    const expected = Buffer.from(this.csrfFor(sessionId));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  get size(): number {
    return this.open.size;
  }

  private expired(s: Pick<OpenSession, 'createdAt' | 'lastSeen'>): boolean {
    const now = this.now();
    return now - s.lastSeen > this.idleMs || now - s.createdAt > this.maxAgeMs;
  }
}
