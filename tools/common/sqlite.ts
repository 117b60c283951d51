/**
 * SQLite through Node's built-in `node:sqlite` (Node 24 and Electron 45 alike): no native addon to
 * build per Node ABI, so the database opens under `npm test`, the headless host and the desktop app.
 * `node:sqlite` has no transaction helper; `transaction` gives the same all-or-nothing block, and
 * nests through savepoints so a caller may wrap code that opens its own transaction.
 */
import { DatabaseSync } from 'node:sqlite';

export type SqliteDatabase = DatabaseSync;

export function openSqlite(file: string): SqliteDatabase {
  return new DatabaseSync(file);
}

/** Runs `work` in one transaction: committed when it returns, rolled back when it throws. */
export function transaction<T>(db: SqliteDatabase, work: () => T): T {
  if (db.isTransaction) return inSavepoint(db, work);
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (e) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw e;
  }
}

function inSavepoint<T>(db: SqliteDatabase, work: () => T): T {
  db.exec('SAVEPOINT nested');
  try {
    const result = work();
    db.exec('RELEASE nested');
    return result;
  } catch (e) {
    db.exec('ROLLBACK TO nested');
    db.exec('RELEASE nested');
    throw e;
  }
}

/** The value of a pragma that answers one row of one column, e.g. `user_version`. */
export function pragmaValue(db: SqliteDatabase, name: string): unknown {
  const row = db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown> | undefined;
  return row ? Object.values(row)[0] : undefined;
}
