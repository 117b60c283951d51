/**
 * The memory tables in the host's SQLite database. Full-text search is an FTS5 index over the
 * memories table (external content, kept in step by triggers), with the porter stemmer so that
 * "running" finds "run". Versioned like the host's own tables, but counted in a row of its own
 * (`schema_versions`, component 'memory'): the family also runs on a database without the host,
 * and the host's `PRAGMA user_version` counts only the host's migrations.
 */
import { type SqliteDatabase, transaction } from '../common/sqlite';

export type { SqliteDatabase };

/** One step: SQL, or a function for a step SQL alone cannot make safe to repeat. */
export type MemoryMigration = string | ((db: SqliteDatabase) => void);

/** Each entry moves the memory schema from version i to i+1. Append only; never edit a shipped one. */
export const MEMORY_MIGRATIONS: readonly MemoryMigration[] = [
  `
CREATE TABLE IF NOT EXISTS memory_items (
  -- AUTOINCREMENT: an id is never reused after forget, so an old id cannot silently name a new memory.
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  key TEXT UNIQUE,
  text TEXT NOT NULL,
  -- JSON array of normalised tags; FTS tokenises it like text, json_each filters on it.
  tags TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS memory_items_by_update ON memory_items(updated_at DESC, id DESC);
CREATE VIRTUAL TABLE IF NOT EXISTS memory_items_fts USING fts5(
  text, tags, key,
  content = 'memory_items', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS memory_items_ai AFTER INSERT ON memory_items BEGIN
  INSERT INTO memory_items_fts(rowid, text, tags, key) VALUES (new.id, new.text, new.tags, new.key);
END;
CREATE TRIGGER IF NOT EXISTS memory_items_ad AFTER DELETE ON memory_items BEGIN
  INSERT INTO memory_items_fts(memory_items_fts, rowid, text, tags, key)
    VALUES ('delete', old.id, old.text, old.tags, old.key);
END;
CREATE TRIGGER IF NOT EXISTS memory_items_au AFTER UPDATE ON memory_items BEGIN
  INSERT INTO memory_items_fts(memory_items_fts, rowid, text, tags, key)
    VALUES ('delete', old.id, old.text, old.tags, old.key);
  INSERT INTO memory_items_fts(rowid, text, tags, key) VALUES (new.id, new.text, new.tags, new.key);
END;
`,
  // Memory nodes: a role (app, device, screen, person, fact), the names a node had before it was
  // renamed or merged (aliases, found by memory_search_nodes and resolved by key lookups), and the
  // session that last wrote it (for memory_recent_episodes). The index is rebuilt to cover aliases.
  // A function, since SQLite cannot ADD COLUMN IF NOT EXISTS and a database whose version row was
  // lost runs every step again.
  (db) => {
    const columns = new Set(
      (db.prepare('PRAGMA table_info(memory_items)').all() as Array<{ name: string }>).map((c) => c.name),
    );
    if (!columns.has('role')) db.exec('ALTER TABLE memory_items ADD COLUMN role TEXT');
    if (!columns.has('aliases')) db.exec("ALTER TABLE memory_items ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]'");
    if (!columns.has('session_id')) db.exec('ALTER TABLE memory_items ADD COLUMN session_id TEXT');
    db.exec(`
CREATE INDEX IF NOT EXISTS memory_items_by_role ON memory_items(role);
CREATE INDEX IF NOT EXISTS memory_items_by_session ON memory_items(session_id);
DROP TRIGGER IF EXISTS memory_items_ai;
DROP TRIGGER IF EXISTS memory_items_ad;
DROP TRIGGER IF EXISTS memory_items_au;
DROP TABLE IF EXISTS memory_items_fts;
CREATE VIRTUAL TABLE memory_items_fts USING fts5(
  text, tags, key, aliases,
  content = 'memory_items', content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO memory_items_fts(memory_items_fts) VALUES ('rebuild');
CREATE TRIGGER memory_items_ai AFTER INSERT ON memory_items BEGIN
  INSERT INTO memory_items_fts(rowid, text, tags, key, aliases)
    VALUES (new.id, new.text, new.tags, new.key, new.aliases);
END;
CREATE TRIGGER memory_items_ad AFTER DELETE ON memory_items BEGIN
  INSERT INTO memory_items_fts(memory_items_fts, rowid, text, tags, key, aliases)
    VALUES ('delete', old.id, old.text, old.tags, old.key, old.aliases);
END;
CREATE TRIGGER memory_items_au AFTER UPDATE ON memory_items BEGIN
  INSERT INTO memory_items_fts(memory_items_fts, rowid, text, tags, key, aliases)
    VALUES ('delete', old.id, old.text, old.tags, old.key, old.aliases);
  INSERT INTO memory_items_fts(rowid, text, tags, key, aliases)
    VALUES (new.id, new.text, new.tags, new.key, new.aliases);
END;
`);
  },
];

const COMPONENT = 'memory';

/** Brings the memory tables to the newest version, each step in a transaction; safe on every start. */
export function ensureMemorySchema(db: SqliteDatabase): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_versions (component TEXT PRIMARY KEY, version INTEGER NOT NULL)');
  const row = db.prepare('SELECT version FROM schema_versions WHERE component = ?').get(COMPONENT) as
    | { version: number }
    | undefined;
  const current = row?.version ?? 0;
  if (current > MEMORY_MIGRATIONS.length) {
    throw new Error(
      `The memory tables were written by a newer Toolgate (memory schema ${current}, this one ` +
        `knows ${MEMORY_MIGRATIONS.length}).`,
    );
  }
  const record = db.prepare(
    'INSERT INTO schema_versions (component, version) VALUES (?, ?) ' +
      'ON CONFLICT(component) DO UPDATE SET version = excluded.version',
  );
  for (let v = current; v < MEMORY_MIGRATIONS.length; v++) {
    const step = MEMORY_MIGRATIONS[v] as MemoryMigration;
    transaction(db, () => {
      if (typeof step === 'string') db.exec(step);
      else step(db);
      record.run(COMPONENT, v + 1);
    });
  }
  return MEMORY_MIGRATIONS.length;
}
