/**
 * A database written by Toolgate 0.1.0 (better-sqlite3, before the move to node:sqlite) opens with
 * every record intact. The fixture was made by that version's stores; it is never regenerated.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pragmaValue } from '../../tools/common/sqlite';
import { AuditStore } from '../../tools/host/store/audit-store';
import { BreakerStore } from '../../tools/host/store/breaker-store';
import { type Db, openDatabase } from '../../tools/host/store/database';
import { SettingsStore } from '../../tools/host/store/settings-store';
import { SqliteShortcutStore } from '../../tools/host/store/shortcut-store';
import { SpanStore } from '../../tools/host/store/span-store';
import { MemoryStore } from '../../tools/memory/memory-store';

const FIXTURE = join(__dirname, '..', 'fixtures', 'db', 'toolgate-0.1.0.db');
const T0 = 1_780_000_000_000;

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'db-fixture-'));
  copyFileSync(FIXTURE, join(dir, 'toolgate.db'));
  db = openDatabase(join(dir, 'toolgate.db'));
});
afterEach(() => {
  if (db.isOpen) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a database written by Toolgate 0.1.0 opens under node:sqlite', () => {
  it('passes an integrity check and keeps its schema version', () => {
    expect(pragmaValue(db, 'integrity_check')).toBe('ok');
    expect(pragmaValue(db, 'journal_mode')).toBe('wal');
    expect(Number(pragmaValue(db, 'user_version'))).toBeGreaterThanOrEqual(1);
  });

  it('keeps every span with its fields', () => {
    const spans = new SpanStore(db).query({ limit: 100 });
    expect(spans).toHaveLength(12);
    const failed = spans.find((s) => s.spanId === 's4');
    expect(failed).toMatchObject({
      callId: 'c2',
      toolId: 'ui_tap',
      outcome: 'error',
      errorCode: 'TIMEOUT',
      errorSlug: 'no-complete-response',
      attempt: 1,
      startedAt: T0 + 4000,
      durationMs: 5.5,
    });
    expect(failed?.argsDigest.fields.serial).toEqual({ kind: 'string', length: 14, printable: 14 });
    expect(spans.find((s) => s.spanId === 's5')).toMatchObject({ parentCallId: 'c0', backoffMs: 12.5, attempt: 2 });
  });

  it('keeps the approval audit, breaker timeline, settings and shortcuts', () => {
    const audit = new AuditStore(db).recent();
    expect(audit.map((a) => [a.toolId, a.decision, a.reason ?? null])).toEqual([
      ['app_uninstall', 'deny', 'not today'],
      ['delete_file', 'approve_once', null],
    ]);
    expect(new BreakerStore(db).timeline('http_request').map((t) => `${t.from}>${t.to}@${t.at - T0}`)).toEqual([
      'CLOSED>OPEN@100',
      'OPEN>HALF_OPEN@30100',
    ]);
    expect(new SettingsStore(db).get('user')).toEqual({
      approvalTimeoutSeconds: 90,
      networkBlockPrivateAddresses: true,
    });
    expect(new SqliteShortcutStore<{ id: string; steps: unknown[] }>(db).list()).toEqual([
      {
        id: 'shortcut.open_wifi',
        description: 'Open Wi-Fi settings',
        params: [],
        steps: [{ tool: 'app_launch', args: { packageName: 'com.android.settings' } }],
      },
    ]);
  });

  it('keeps memories searchable through the FTS5 index', () => {
    const memory = new MemoryStore(db);
    expect(memory.count()).toBe(2);
    const found = memory.search('pin', [], 10).memories;
    expect(found.map((m) => m.key)).toEqual(['staging-pin']);
    expect(memory.search('buttons', ['shop'], 10).memories.map((m) => m.text)).toEqual([
      'Checkout button sits at the bottom right',
    ]);
  });

  it('accepts new records beside the old ones', () => {
    const spans = new SpanStore(db);
    spans.insert({
      spanId: 'new',
      callId: 'c9',
      toolId: 'calculate',
      sessionId: 'x',
      requesterKind: 'ui',
      attempt: 1,
      startedAt: T0 + 99_000,
      durationMs: 1,
      outcome: 'success',
      backoffMs: 0,
      argsDigest: { fields: {}, totalLength: 2 },
    });
    expect(spans.count()).toBe(13);
  });
});
