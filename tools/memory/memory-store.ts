/**
 * Memory rows in SQLite: remember (upsert by key, or de-duplicate identical keyless text), search
 * (FTS5 + bm25, optional all-of tag filter), forget. The tools are thin wrappers over this.
 */
import { toFtsQuery } from './fts-query';
import { transaction } from '../common/sqlite';
import { type SqliteDatabase, ensureMemorySchema } from './schema';

export const MEMORY_ROLES = ['app', 'device', 'screen', 'person', 'fact'] as const;
export type MemoryRole = (typeof MEMORY_ROLES)[number];

export interface Memory {
  id: number;
  key: string | null;
  text: string;
  tags: string[];
  /** What the memory is about, when said: an app, a device, a screen, a person, a fact. */
  role: MemoryRole | null;
  /** Names the memory had before it was renamed or merged; a lookup by one finds it. */
  aliases: string[];
  createdAt: number;
  updatedAt: number;
}

export interface RememberOptions {
  role?: MemoryRole;
  /** The session the write comes from (`<client>#<n>`), kept for memory_recent_episodes. */
  sessionId?: string;
}

export interface RecalledMemory extends Memory {
  /** Higher is a better match (negated bm25); undefined when listing without a query. */
  score: number | undefined;
}

export type RememberOutcome = 'created' | 'replaced' | 'already_known';

export interface MemoryRow {
  id: number;
  key: string | null;
  text: string;
  tags: string;
  role: string | null;
  aliases: string;
  created_at: number;
  updated_at: number;
  rank?: number;
}
type Row = MemoryRow;

export const COLUMNS = 'm.id, m.key, m.text, m.tags, m.role, m.aliases, m.created_at, m.updated_at';
/** The memory a name means: its key, else a memory that had this name before (an alias). */
export const BY_NAME = `SELECT ${COLUMNS}, 0 AS pri FROM memory_items m WHERE m.key = ?
  UNION ALL SELECT ${COLUMNS}, 1 AS pri FROM memory_items m
    WHERE EXISTS (SELECT 1 FROM json_each(m.aliases) a WHERE a.value = ?)
  ORDER BY pri, id LIMIT 1`;
/** All given tags present: the count of the memory's tags that are among them equals their number. */
const TAG_FILTER =
  '(? = 0 OR (SELECT COUNT(DISTINCT t.value) FROM json_each(m.tags) t WHERE t.value IN (SELECT ' +
  'value FROM json_each(?))) = ?)';

export class MemoryStore {
  private readonly now: () => number;

  constructor(
    private readonly db: SqliteDatabase,
    options: { now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
    ensureMemorySchema(db);
  }

  remember(
    text: string,
    tags: string[],
    key: string | undefined,
    options: RememberOptions = {},
  ): { memory: Memory; outcome: RememberOutcome } {
    return transaction(this.db, () => {
      const now = this.now();
      const existing = key !== undefined ? this.byKey(key) : this.keylessWithText(text);
      const session = options.sessionId ?? null;
      if (!existing) {
        const info = this.db
          .prepare(
            'INSERT INTO memory_items (key, text, tags, role, session_id, ' +
              'created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          )
          .run(key ?? null, text, JSON.stringify(tags), options.role ?? null, session, now, now);
        return { memory: this.mustGet(Number(info.lastInsertRowid)), outcome: 'created' as const };
      }
      const mergedTags = key !== undefined ? tags : [...new Set([...existing.tags, ...tags])];
      const role = options.role ?? existing.role;
      const unchanged =
        existing.text === text &&
        JSON.stringify(existing.tags) === JSON.stringify(mergedTags) &&
        role === existing.role;
      if (!unchanged) {
        this.db
          .prepare('UPDATE memory_items SET text = ?, tags = ?, role = ?, session_id = ?, updated_at = ? WHERE id = ?')
          .run(text, JSON.stringify(mergedTags), role, session, now, existing.id);
      }
      return {
        memory: this.mustGet(existing.id),
        outcome: unchanged || key === undefined ? ('already_known' as const) : ('replaced' as const),
      };
    });
  }

  search(
    query: string | undefined,
    tags: string[],
    limit: number,
  ): { memories: RecalledMemory[]; searchable: boolean } {
    const tagArgs = [tags.length, JSON.stringify(tags), tags.length];
    if (query === undefined || !query.trim()) {
      const rows = this.db
        .prepare(
          `SELECT ${COLUMNS} FROM memory_items m WHERE ${TAG_FILTER} ORDER BY m.updated_at DESC, m.id DESC LIMIT ?`,
        )
        .all(...tagArgs, limit) as unknown as Row[];
      return { memories: rows.map((r) => ({ ...toMemory(r), score: undefined })), searchable: true };
    }
    const match = toFtsQuery(query);
    if (match === undefined) return { memories: [], searchable: false };
    // Text weighs most; a hit in tags or the key still counts.
    const rows = this.db
      .prepare(
        `SELECT ${COLUMNS}, bm25(memory_items_fts, 1.0, 0.5, 0.5, 0.5) AS rank
         FROM memory_items_fts JOIN memory_items m ON m.id = memory_items_fts.rowid
         WHERE memory_items_fts MATCH ? AND ${TAG_FILTER}
         ORDER BY rank, m.id DESC LIMIT ?`,
      )
      .all(match, ...tagArgs, limit) as unknown as Row[];
    return {
      memories: rows.map((r) => ({ ...toMemory(r), score: r.rank === undefined ? undefined : -r.rank })),
      searchable: true,
    };
  }

  forget(target: { id: number } | { key: string }): Memory | undefined {
    return transaction(this.db, () => {
      const memory = 'id' in target ? this.get(target.id) : this.byKey(target.key);
      if (memory) this.db.prepare('DELETE FROM memory_items WHERE id = ?').run(memory.id);
      return memory;
    });
  }

  get(id: number): Memory | undefined {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM memory_items m WHERE m.id = ?`).get(id) as Row | undefined;
    return row ? toMemory(row) : undefined;
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM memory_items').get() as { n: number }).n;
  }

  /** By key, or by a name the memory had before it was renamed or merged. */
  byKey(key: string): Memory | undefined {
    const row = this.db.prepare(BY_NAME).get(key, key) as Row | undefined;
    return row ? toMemory(row) : undefined;
  }

  private keylessWithText(text: string): Memory | undefined {
    const row = this.db
      .prepare(`SELECT ${COLUMNS} FROM memory_items m WHERE m.key IS NULL AND m.text = ? LIMIT 1`)
      .get(text) as Row | undefined;
    return row ? toMemory(row) : undefined;
  }

  private mustGet(id: number): Memory {
    const memory = this.get(id);
    if (!memory) throw new Error(`memory ${id} vanished inside its own transaction`);
    return memory;
  }
}

/** A JSON array of strings; a hand-edited row with a broken one still recalls, just without it. */
function stringList(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

const ROLES = new Set<string>(MEMORY_ROLES);

export function toMemory(row: Row): Memory {
  return {
    id: row.id,
    key: row.key,
    text: row.text,
    tags: stringList(row.tags),
    role: row.role && ROLES.has(row.role) ? (row.role as MemoryRole) : null,
    aliases: stringList(row.aliases),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
