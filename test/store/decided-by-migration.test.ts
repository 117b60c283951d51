/**
 * Rule: the migration that gives spans `decided_by` fills it in for the refusals older versions
 * kept, from the slug they kept, so calls recorded before it keep their class (denied by a person,
 * unanswered, refused by a rule); a refusal no approval made is left without one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classifyCall } from '../../shared/call-classes';
import { openSqlite } from '../../tools/common/sqlite';
import { MIGRATIONS, openDatabase } from '../../tools/host/store/database';
import { SpanStore } from '../../tools/host/store/span-store';

const BEFORE = MIGRATIONS.length - 1;
const SLUGS = [
  'approval-denied',
  'shell-denied',
  'approval-timeout',
  'approval-failed',
  'approval-rule-denied',
  'path-escape',
];

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'decided-by-migration-'));
  file = join(dir, 'toolgate.db');
  const old = openSqlite(file);
  for (const step of MIGRATIONS.slice(0, BEFORE)) old.exec(step);
  old.exec(`PRAGMA user_version = ${BEFORE}`);
  const insert = old.prepare(
    `INSERT INTO spans (span_id, call_id, tool_id, session_id, requester_kind, attempt, started_at, duration_ms,
       outcome, error_code, error_slug, args_digest)
     VALUES (?, ?, 'delete_file', 's', 'mcp', 0, ?, 0, 'error', ?, ?, '{}')`,
  );
  for (const [i, slug] of SLUGS.entries()) insert.run(`s${i}`, slug, i, 'PERMISSION_DENIED', slug);
  insert.run('s9', 'not-denied', 9, 'NOT_FOUND', 'approval-denied');
  old.close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the decided_by migration', () => {
  it('gives old refusals who decided them, from their slug, and their classes stay', () => {
    const db = openDatabase(file);
    const spans = new SpanStore(db).query({ limit: 20 }).reverse();
    expect(spans.map((s) => [s.callId, s.decidedBy])).toEqual([
      ['approval-denied', 'person'],
      ['shell-denied', 'person'],
      ['approval-timeout', 'timeout'],
      ['approval-failed', 'approver-failed'],
      ['approval-rule-denied', 'rule'],
      ['path-escape', undefined],
      ['not-denied', undefined],
    ]);
    expect(spans.map((s) => classifyCall(s))).toEqual([
      'denied',
      'denied',
      'unanswered',
      'unanswered',
      'policyRefused',
      'policyRefused',
      'callerMistake',
    ]);
    db.close();
  });
});
