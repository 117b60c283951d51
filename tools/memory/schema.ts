/**
 * The memory tables in the host's SQLite database. Full-text search is an FTS5 index over the
 * memories table (external content, kept in step by triggers), with the porter stemmer so that
 * "running" finds "run". Idempotent: safe to call on every start.
 */
import type Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;

const SCHEMA = `
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
  INSERT INTO memory_items_fts(memory_items_fts, rowid, text, tags, key) VALUES ('delete', old.id, old.text, old.tags, old.key);
END;
CREATE TRIGGER IF NOT EXISTS memory_items_au AFTER UPDATE ON memory_items BEGIN
  INSERT INTO memory_items_fts(memory_items_fts, rowid, text, tags, key) VALUES ('delete', old.id, old.text, old.tags, old.key);
  INSERT INTO memory_items_fts(rowid, text, tags, key) VALUES (new.id, new.text, new.tags, new.key);
END;
`;

export function ensureMemorySchema(db: SqliteDatabase): void {
  db.exec(SCHEMA);
}
