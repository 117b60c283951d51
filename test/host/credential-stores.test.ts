/**
 * Rule: credentials outlive a host restart only as digests. A UI session opened from a link stays
 * open across restarts (same database) until a week unused or a month in all; a client token keeps
 * working after a restart and a revoked one stays revoked; the database holds neither a session id
 * nor a token. A link signed by an earlier host run (another key) opens nothing.
 */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientTokens } from '../../tools/host/auth/client-tokens';
import { newLinkKey } from '../../tools/host/auth/ui-link';
import { UiSessions } from '../../tools/host/auth/ui-sessions';
import { ClientTokenStore } from '../../tools/host/store/client-token-store';
import { type Db, openDatabase } from '../../tools/host/store/database';
import { UiSessionStore } from '../../tools/host/store/ui-session-store';
import { DEFAULT_PROFILE } from '../../tools/host/toolsets/profile';
import { removeDir } from '../support/remove-dir';

const DAY = 24 * 3_600_000;
const dirs: string[] = [];
const open: Db[] = [];

function database(dir: string): Db {
  const db = openDatabase(join(dir, 'toolgate.db'));
  open.push(db);
  return db;
}

function fileText(dir: string): string {
  for (const db of open) db.exec('PRAGMA wal_checkpoint(FULL)');
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f)).toString('latin1'))
    .join('\n');
}

afterEach(async () => {
  for (const db of open.splice(0)) if (db.isOpen) db.close();
  for (const d of dirs.splice(0)) await removeDir(d);
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'toolgate-creds-'));
  dirs.push(d);
  return d;
}

const secretOf = (link: string) => new URL(link).pathname.replace('/session/', '');

describe('UI sessions', () => {
  it('stay open across a restart, and the database holds no session id', () => {
    const dir = tempDir();
    let now = 1_000_000;
    const key = newLinkKey();
    const first = new UiSessions(new UiSessionStore(database(dir)), { linkKey: key, now: () => now });
    const opened = first.redeem(secretOf(first.link('http://127.0.0.1:1/')));
    if (!opened.ok) throw new Error(opened.reason);
    expect(first.isOpen(opened.sessionId)).toBe(true);
    open.pop()?.close();

    now += DAY;
    const second = new UiSessions(new UiSessionStore(database(dir)), { linkKey: newLinkKey(), now: () => now });
    expect(second.isOpen(opened.sessionId)).toBe(true);
    expect(second.csrfMatches(opened.sessionId, opened.csrf)).toBe(true);
    expect(fileText(dir)).not.toContain(opened.sessionId);
  });

  it('end after a week unused, and after a month however used', () => {
    const dir = tempDir();
    let now = 1_000_000;
    const sessions = new UiSessions(new UiSessionStore(database(dir)), { linkKey: newLinkKey(), now: () => now });
    const idle = sessions.redeem(secretOf(sessions.link('http://127.0.0.1:1/')));
    const busy = sessions.redeem(secretOf(sessions.link('http://127.0.0.1:1/')));
    if (!idle.ok || !busy.ok) throw new Error('links refused');
    for (let day = 1; day <= 8; day++) {
      now += DAY;
      expect(sessions.isOpen(busy.sessionId)).toBe(true);
    }
    expect(sessions.isOpen(idle.sessionId)).toBe(false);
    for (let day = 9; day <= 31; day++) {
      now += DAY;
      if (!sessions.isOpen(busy.sessionId)) break;
    }
    expect(sessions.isOpen(busy.sessionId)).toBe(false);
  });

  it('open from no link of another host run', () => {
    const dir = tempDir();
    const earlier = new UiSessions(new UiSessionStore(database(dir)), { linkKey: newLinkKey() });
    const link = earlier.link('http://127.0.0.1:1/');
    const later = new UiSessions(new UiSessionStore(database(dir)), { linkKey: newLinkKey() });
    expect(later.redeem(secretOf(link))).toEqual({
      ok: false,
      reason: 'not a link of this host run (the host restarted, or the link was altered)',
    });
  });
});

describe('client tokens', () => {
  it('keep working across a restart and stay revoked once revoked; the database holds digests only', () => {
    const dir = tempDir();
    const first = new ClientTokens(new ClientTokenStore(database(dir)), 'the-default-token-1234');
    const kept = first.create('laptop');
    const dropped = first.create('old-phone');
    expect(first.revoke(dropped.client.id)).toBe(true);
    open.pop()?.close();

    const second = new ClientTokens(new ClientTokenStore(database(dir)), 'the-default-token-1234');
    expect(second.identify(kept.token)).toEqual({ id: kept.client.id, name: 'laptop', toolsets: DEFAULT_PROFILE });
    expect(second.identify(dropped.token)).toBeUndefined();
    expect(second.identify('the-default-token-1234')).toEqual({
      id: 'default',
      name: 'default',
      toolsets: DEFAULT_PROFILE,
    });
    expect(second.list().map((c) => c.name)).toEqual(['default', 'laptop']);
    const text = fileText(dir);
    expect(text).not.toContain(kept.token);
    expect(text).not.toContain(dropped.token);
  });

  it('keep the toolsets a person gave each client, the default one too, across a restart', () => {
    const dir = tempDir();
    const first = new ClientTokens(new ClientTokenStore(database(dir)), 'the-default-token-1234');
    const browsing = first.create('browsing', ['browser', 'files', 'browser']);
    expect(browsing.client.toolsets).toEqual(['browser', 'files']);
    expect(first.setToolsets('default', ['structured'])?.toolsets).toEqual(['structured']);
    expect(first.setToolsets('no-such-client', ['files'])).toBeUndefined();
    open.pop()?.close();

    const second = new ClientTokens(new ClientTokenStore(database(dir)), 'the-default-token-1234');
    expect(second.identify(browsing.token)?.toolsets).toEqual(['browser', 'files']);
    expect(second.identify('the-default-token-1234')?.toolsets).toEqual(['structured']);
  });
});
