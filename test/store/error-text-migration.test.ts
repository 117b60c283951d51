/**
 * Rule: the migration that gives spans their error text also removes what older versions wrote of
 * argument text into the breaker timeline: per-target keys that spelled the target
 * (`ui_tap@<serial>`) and causes that named an older, looser slug. Spans keep their cleaned error
 * text through the database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, pragmaValue } from '../../tools/common/sqlite';
import { BreakerStore } from '../../tools/host/store/breaker-store';
import { MIGRATIONS, openDatabase } from '../../tools/host/store/database';
import { SpanStore } from '../../tools/host/store/span-store';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'error-text-migration-'));
  file = join(dir, 'toolgate.db');
  const v1 = openSqlite(file);
  v1.exec(MIGRATIONS[0] as string);
  v1.exec('PRAGMA user_version = 1');
  const insert = v1.prepare(
    'INSERT INTO breaker_transitions (tool_id, from_state, to_state, at, cause) VALUES (?, ?, ?, ?, ?)',
  );
  insert.run('http_request', 'closed', 'open', 1, '5 consecutive failures (last: hunter2secretword)');
  insert.run('http_request', 'open', 'half_open', 2, 'cooldown elapsed');
  insert.run('http_request', 'half_open', 'open', 3, 'probe failed (hunter2secretword)');
  insert.run('ui_tap@hunter2-serial', 'closed', 'open', 4, '5 consecutive failures (last: device-offline)');
  v1.close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 2', () => {
  it('keeps each timeline without the slugs and target names older versions spelled out', () => {
    const db = openDatabase(file);
    expect(Number(pragmaValue(db, 'user_version'))).toBe(MIGRATIONS.length);
    const breakers = new BreakerStore(db);
    expect(breakers.toolsWithTransitions()).toEqual(['http_request']);
    expect(breakers.timeline('http_request').map((t) => t.cause)).toEqual([
      '5 consecutive failures',
      'cooldown elapsed',
      'probe failed',
    ]);
    db.close();
  });

  it('stores and reads back the error text of a span', () => {
    const db = openDatabase(file);
    const spans = new SpanStore(db);
    spans.insert({
      spanId: 's1',
      callId: 'c1',
      toolId: 'http_request',
      sessionId: 'x',
      requesterKind: 'mcp',
      attempt: 1,
      startedAt: 1,
      durationMs: 300,
      outcome: 'error',
      errorCode: 'TIMEOUT',
      errorSlug: 'timeout',
      errorText: 'No complete response from ‹url› within 300 ms.',
      backoffMs: 0,
      argsDigest: { fields: {}, totalLength: 2 },
    });
    expect(spans.query({ callId: 'c1' })[0]?.errorText).toBe('No complete response from ‹url› within 300 ms.');
    db.close();
  });
});
