/** Shortcut definitions that survive a restart; the host registers them again at start. */
import type { Db } from './database';

export class SqliteShortcutStore<Def extends { id: string }> {
  constructor(private readonly db: Db) {}

  list(): Def[] {
    const rows = this.db.prepare('SELECT definition FROM shortcuts ORDER BY id').all() as Array<{ definition: string }>;
    return rows.map((r) => JSON.parse(r.definition) as Def);
  }

  save(def: Def): void {
    this.db
      .prepare(
        'INSERT INTO shortcuts (id, definition, updated_at) VALUES (?, ?, ?) ' +
          'ON CONFLICT(id) DO UPDATE SET definition = excluded.definition, updated_at = excluded.updated_at',
      )
      .run(def.id, JSON.stringify(def), Date.now());
  }

  remove(id: string): boolean {
    return this.db.prepare('DELETE FROM shortcuts WHERE id = ?').run(id).changes > 0;
  }
}
