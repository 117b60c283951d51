/** Installed skills in SQLite (the `skills` and `skill_seeds` tables); the skills family reads them at start. */
import type { SkillRecord, SkillStore } from '../../skills';
import type { Db } from './database';

interface Row {
  name: string;
  skill_md: string;
  source: string;
  origin: SkillRecord['origin'];
  enabled: number;
  files: number;
  bytes: number;
  installed_at: number;
  updated_at: number;
}

const fromRow = (r: Row): SkillRecord => ({
  name: r.name,
  skillMd: r.skill_md,
  source: r.source,
  origin: r.origin,
  enabled: r.enabled === 1,
  files: r.files,
  bytes: r.bytes,
  installedAt: r.installed_at,
  updatedAt: r.updated_at,
});

export class SqliteSkillStore implements SkillStore {
  constructor(private readonly db: Db) {}

  list(): SkillRecord[] {
    return (this.db.prepare('SELECT * FROM skills ORDER BY name').all() as unknown as Row[]).map(fromRow);
  }

  get(name: string): SkillRecord | undefined {
    const row = this.db.prepare('SELECT * FROM skills WHERE name = ?').get(name) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  save(r: SkillRecord): void {
    this.db
      .prepare(
        `INSERT INTO skills (name, skill_md, source, origin, enabled, files, bytes, installed_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET skill_md = excluded.skill_md, source = excluded.source,
           origin = excluded.origin, enabled = excluded.enabled, files = excluded.files, bytes = excluded.bytes,
           installed_at = excluded.installed_at, updated_at = excluded.updated_at`,
      )
      .run(r.name, r.skillMd, r.source, r.origin, r.enabled ? 1 : 0, r.files, r.bytes, r.installedAt, r.updatedAt);
  }

  setEnabled(name: string, enabled: boolean, at: number): boolean {
    return (
      this.db.prepare('UPDATE skills SET enabled = ?, updated_at = ? WHERE name = ?').run(enabled ? 1 : 0, at, name)
        .changes > 0
    );
  }

  remove(name: string): boolean {
    return this.db.prepare('DELETE FROM skills WHERE name = ?').run(name).changes > 0;
  }

  wasSeeded(name: string): boolean {
    return this.db.prepare('SELECT 1 FROM skill_seeds WHERE name = ?').get(name) !== undefined;
  }

  markSeeded(name: string, at: number): void {
    this.db.prepare('INSERT OR IGNORE INTO skill_seeds (name, seeded_at) VALUES (?, ?)').run(name, at);
  }
}
