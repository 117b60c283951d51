/**
 * The host's SQLite database (node:sqlite, WAL): trace spans, breaker transitions, the approval
 * audit log and rules, shortcuts, settings, client tokens with their toolsets, UI sessions and
 * installed skills. Versioned migrations run in a transaction at open, tracked by
 * `PRAGMA user_version`, so a database is never left half-migrated.
 */
import { type SqliteDatabase, openSqlite, pragmaValue, transaction } from '../../common/sqlite';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export type Db = SqliteDatabase;

/** Each entry moves the schema from version i to i+1. Append only; never edit a shipped one. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE spans (
     span_id TEXT PRIMARY KEY,
     call_id TEXT NOT NULL,
     parent_call_id TEXT,
     tool_id TEXT NOT NULL,
     session_id TEXT NOT NULL,
     requester_kind TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     started_at REAL NOT NULL,
     duration_ms REAL NOT NULL,
     outcome TEXT NOT NULL,
     error_code TEXT,
     error_slug TEXT,
     backoff_ms REAL NOT NULL DEFAULT 0,
     args_digest TEXT NOT NULL
   );
   CREATE INDEX spans_started ON spans(started_at);
   CREATE INDEX spans_tool ON spans(tool_id, started_at);
   CREATE INDEX spans_call ON spans(call_id);
   CREATE TABLE breaker_transitions (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     tool_id TEXT NOT NULL,
     from_state TEXT NOT NULL,
     to_state TEXT NOT NULL,
     at REAL NOT NULL,
     cause TEXT NOT NULL
   );
   CREATE INDEX breaker_tool ON breaker_transitions(tool_id, at);
   CREATE TABLE approval_audit (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     at REAL NOT NULL,
     call_id TEXT NOT NULL,
     session_id TEXT NOT NULL,
     tool_id TEXT NOT NULL,
     args_digest TEXT NOT NULL,
     decision TEXT NOT NULL,
     reason TEXT,
     decider TEXT
   );
   CREATE TABLE shortcuts (
     id TEXT PRIMARY KEY,
     definition TEXT NOT NULL,
     updated_at REAL NOT NULL
   );
   CREATE TABLE settings (
     key TEXT PRIMARY KEY,
     value TEXT NOT NULL
   );`,
  // Credentials are kept as SHA-256 digests only: the database alone opens no session and calls no tool.
  `CREATE TABLE client_tokens (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     token_hash TEXT NOT NULL UNIQUE,
     hint TEXT NOT NULL,
     created_at REAL NOT NULL,
     revoked_at REAL
   );
   CREATE TABLE ui_sessions (
     id_hash TEXT PRIMARY KEY,
     created_at REAL NOT NULL,
     last_seen REAL NOT NULL
   );`,
  // A failure's cleaned text; breaker timelines lose what older versions kept of targets and errors:
  // per-target keys spelled the target (`ui_tap@<serial>`) and causes named an older, looser slug.
  `ALTER TABLE spans ADD COLUMN error_text TEXT;
   DELETE FROM breaker_transitions WHERE instr(tool_id, '@') > 0;
   UPDATE breaker_transitions SET cause = rtrim(substr(cause, 1, instr(cause, ' (') - 1))
     WHERE instr(cause, ' (') > 0;`,
  // Installed skills (store/skill-store.ts). SKILL.md is kept here as installed: the tools, prompts
  // and resources a skill brings are built from this copy, never from the files on disk.
  // skill_seeds remembers which bundled skills were offered, so one the person removed stays removed.
  `CREATE TABLE IF NOT EXISTS skills (
     name TEXT PRIMARY KEY,
     skill_md TEXT NOT NULL,
     source TEXT NOT NULL,
     origin TEXT NOT NULL,
     enabled INTEGER NOT NULL DEFAULT 1,
     files INTEGER NOT NULL,
     bytes INTEGER NOT NULL,
     installed_at REAL NOT NULL,
     updated_at REAL NOT NULL
   );
   CREATE TABLE IF NOT EXISTS skill_seeds (
     name TEXT PRIMARY KEY,
     seeded_at REAL NOT NULL
   );`,
  // Approvals a person can rely on: what an approval covered, the rule that decided, how long a
  // call waited (kept apart from its run in spans too), and the person's approval rules.
  `ALTER TABLE approval_audit ADD COLUMN scope TEXT;
   ALTER TABLE approval_audit ADD COLUMN rule TEXT;
   ALTER TABLE approval_audit ADD COLUMN waited_ms REAL;
   ALTER TABLE spans ADD COLUMN person_wait_ms REAL;
   CREATE TABLE approval_rules (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     effect TEXT NOT NULL CHECK (effect IN ('allow', 'ask', 'deny')),
     tool_pattern TEXT NOT NULL,
     arg_patterns TEXT NOT NULL,
     note TEXT,
     created_at REAL NOT NULL
   );`,
  // The toolsets a client's token allows, as a JSON array of names; a client without a row (the
  // default one included) has the default profile. Kept by client id, which never changes.
  `CREATE TABLE IF NOT EXISTS client_toolsets (
     client_id TEXT PRIMARY KEY,
     toolsets TEXT NOT NULL,
     updated_at REAL NOT NULL
   );`,
  // Who decided the approval that refused a call (TraceSpan.decidedBy), apart from the error's slug,
  // which is dropped when the arguments share its words. Older rows take it from the slug they kept.
  `ALTER TABLE spans ADD COLUMN decided_by TEXT;
   UPDATE spans SET decided_by = CASE
       WHEN error_slug IN ('approval-denied', 'shell-denied', 'setting-denied', 'terminal-denied') THEN 'person'
       WHEN error_slug IN ('approval-timeout', 'shell-unanswered', 'setting-unanswered') THEN 'timeout'
       WHEN error_slug = 'approval-failed' THEN 'approver-failed'
       WHEN error_slug IN ('approval-rule-denied', 'shell-rule-denied', 'setting-rule-denied') THEN 'rule'
     END
     WHERE error_code = 'PERMISSION_DENIED';`,
];

/**
 * The database and its -wal, -shm and -journal files are the owner's only (0600): they hold
 * memorized values and the audit. SQLite creates -wal and -shm later, giving them the database
 * file's own mode (os_unix.c, findCreateFileMode and the shm open), so the database file is made
 * 0600 before SQLite opens it; files left by an older version are tightened as well.
 */
function ownerOnly(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      chmodSync(f, 0o600);
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'ENOENT') throw e;
    }
  }
}

export function openDatabase(file: string): Db {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    ownerOnly(file);
  }
  const db = openSqlite(file);
  db.exec('PRAGMA journal_mode = WAL');
  // NORMAL in WAL mode: a commit survives a crash of the process (SIGKILL); only an OS crash can lose the last ones.
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  migrate(db);
  return db;
}

export function migrate(db: Db): number {
  const current = Number(pragmaValue(db, 'user_version'));
  if (current > MIGRATIONS.length) {
    throw new Error(
      `The database was written by a newer Toolgate (schema ${current}, this one knows ${MIGRATIONS.length}).`,
    );
  }
  for (let v = current; v < MIGRATIONS.length; v++) {
    const step = MIGRATIONS[v] as string;
    transaction(db, () => {
      db.exec(step);
      db.exec(`PRAGMA user_version = ${v + 1}`);
    });
  }
  return MIGRATIONS.length;
}
