/** Open UI sessions, by the SHA-256 digest of their id, so a person's page survives a host restart. */
import type { Db } from './database';

export interface UiSessionRow {
  idHash: string;
  createdAt: number;
  lastSeen: number;
}

export class UiSessionStore {
  constructor(private readonly db: Db) {}

  insert(row: UiSessionRow): void {
    this.db
      .prepare('INSERT INTO ui_sessions (id_hash, created_at, last_seen) VALUES (?, ?, ?)')
      .run(row.idHash, row.createdAt, row.lastSeen);
  }

  all(): UiSessionRow[] {
    const rows = this.db.prepare('SELECT * FROM ui_sessions').all() as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      idHash: r.id_hash as string,
      createdAt: r.created_at as number,
      lastSeen: r.last_seen as number,
    }));
  }

  touch(idHash: string, at: number): void {
    this.db.prepare('UPDATE ui_sessions SET last_seen = ? WHERE id_hash = ?').run(at, idHash);
  }

  remove(idHash: string): void {
    this.db.prepare('DELETE FROM ui_sessions WHERE id_hash = ?').run(idHash);
  }
}
