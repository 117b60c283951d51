/**
 * Everything a host has written down, as text to search: every byte of every file in its data dir
 * (the SQLite database with its WAL and shared memory, logs, the workspace), and each SQLite
 * database once more as the rows of every table, read from a copy so the original stays untouched.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

const SQLITE_MAGIC = 'SQLite format 3\u0000';

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return filesUnder(full);
    return e.isFile() ? [full] : [];
  });
}

/** The data dir's files, each as UTF-8 text, plus every SQLite database's rows; `files` names what was read. */
export function writtenDown(dataDir: string): { text: string; files: string[] } {
  const files = filesUnder(dataDir);
  const parts: string[] = [];
  for (const file of files) {
    const bytes = readFileSync(file);
    parts.push(bytes.toString('utf8'));
    if (bytes.subarray(0, 16).toString('latin1') === SQLITE_MAGIC) parts.push(sqliteRows(file));
  }
  return { text: parts.join('\n'), files };
}

/** Every row of every table (virtual tables and their shadow tables included), as text. */
export function sqliteRows(file: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'written-down-'));
  try {
    const copy = join(dir, 'copy.db');
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
    const db = new DatabaseSync(copy);
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
      const out: string[] = [];
      for (const { name } of tables) {
        const rows = db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`).all();
        for (const row of rows) {
          out.push(
            Object.values(row)
              .map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : String(v)))
              .join('\t'),
          );
        }
      }
      return out.join('\n');
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
