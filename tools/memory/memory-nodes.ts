/**
 * Memories as nodes: named (the key), with a role, and with the names they had before. Renaming a
 * node keeps its old name as an alias; merging one node into another keeps both names on the one
 * that remains. memory_search_nodes finds a node by any of its names (exact, first) and by the
 * words of its text, name and aliases (FTS5 bm25); key lookups (memorize, forget) resolve aliases.
 */
import { transaction } from '../common/sqlite';
import { toFtsQuery } from './fts-query';
import {
  BY_NAME,
  COLUMNS,
  type Memory,
  type MemoryRole,
  type MemoryRow,
  type MemoryStore,
  type RememberOptions,
  toMemory,
} from './memory-store';
import type { SqliteDatabase } from './schema';

export interface FoundNode extends Memory {
  /** How the query met the node: by its name, by an old name, or by words. */
  match: 'name' | 'alias' | 'words';
  matchedAlias?: string;
  score?: number;
}

export type RenameOutcome = 'renamed' | 'merged';

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** The query names the alias: every word of one is a word of the other. */
function sharesName(query: string, alias: string): boolean {
  const q = new Set(wordsOf(query));
  const a = wordsOf(alias);
  return a.length > 0 && (a.every((w) => q.has(w)) || [...q].every((w) => a.includes(w)));
}

export class MemoryNodes {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly store: MemoryStore,
    private readonly now: () => number,
  ) {}

  /**
   * The node named `from` becomes `to` (or is merged into the node named `to`), with this text,
   * these tags and this role; `from` and the node's earlier names stay as aliases. undefined when
   * nothing is named `from`.
   */
  rename(
    from: string,
    to: string,
    text: string,
    tags: string[],
    options: RememberOptions,
  ): { memory: Memory; outcome: RenameOutcome; from: Memory } | undefined {
    return transaction(this.db, () => {
      const source = this.store.byKey(from);
      if (!source) return undefined;
      const target = this.store.byKey(to);
      const now = this.now();
      const keep = target && target.id !== source.id ? target : source;
      const names = new Set([...keep.aliases, ...(keep === source ? [] : source.aliases)]);
      for (const old of [source.key, keep.key, from]) if (old) names.add(old);
      names.delete(to);
      const mergedTags = keep === source ? tags : [...new Set([...(target?.tags ?? []), ...source.tags, ...tags])];
      const role = options.role ?? keep.role ?? source.role;
      if (keep !== source) this.db.prepare('DELETE FROM memory_items WHERE id = ?').run(source.id);
      this.db
        .prepare(
          'UPDATE memory_items SET key = ?, text = ?, tags = ?, role = ' +
            '?, aliases = ?, session_id = ?, updated_at = ? WHERE id = ?',
        )
        .run(
          to,
          text,
          JSON.stringify(mergedTags),
          role,
          JSON.stringify([...names]),
          options.sessionId ?? null,
          now,
          keep.id,
        );
      const memory = this.store.get(keep.id);
      if (!memory) throw new Error(`memory ${keep.id} vanished inside its own transaction`);
      return { memory, outcome: keep === source ? 'renamed' : 'merged', from: source };
    });
  }

  search(query: string, role: MemoryRole | undefined, limit: number): FoundNode[] {
    const found: FoundNode[] = [];
    const seen = new Set<number>();
    const named = this.db.prepare(BY_NAME).get(query.trim(), query.trim()) as (MemoryRow & { pri: number }) | undefined;
    if (named && (!role || named.role === role)) {
      const node = toMemory(named);
      found.push({
        ...node,
        match: named.pri === 0 ? 'name' : 'alias',
        ...(named.pri === 1 ? { matchedAlias: query.trim() } : {}),
      });
      seen.add(node.id);
    }
    const match = toFtsQuery(query);
    if (match === undefined) return found.slice(0, limit);
    // Names and old names weigh most: a node is what it is called.
    const rows = this.db
      .prepare(
        `SELECT ${COLUMNS}, bm25(memory_items_fts, 1.0, 0.5, 2.0, 2.0) AS rank
         FROM memory_items_fts JOIN memory_items m ON m.id = memory_items_fts.rowid
         WHERE memory_items_fts MATCH ? AND (? IS NULL OR m.role = ?)
         ORDER BY rank, m.id DESC LIMIT ?`,
      )
      .all(match, role ?? null, role ?? null, limit) as unknown as MemoryRow[];
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      const node = toMemory(row);
      const alias = node.aliases.find((a) => sharesName(query, a));
      found.push({
        ...node,
        match: alias ? 'alias' : 'words',
        ...(alias ? { matchedAlias: alias } : {}),
        score: Number((-(row.rank ?? 0)).toFixed(4)),
      });
    }
    return found.slice(0, limit);
  }

  /** The memories each session last wrote: ids and roles only. */
  writtenBy(sessionIds: readonly string[]): Map<string, Array<{ id: number; role: MemoryRole | null }>> {
    const out = new Map<string, Array<{ id: number; role: MemoryRole | null }>>();
    if (sessionIds.length === 0) return out;
    const rows = this.db
      .prepare(
        `SELECT m.id, m.role, m.session_id FROM memory_items m
         WHERE m.session_id IN (SELECT value FROM json_each(?)) ORDER BY m.updated_at, m.id`,
      )
      .all(JSON.stringify(sessionIds)) as Array<{ id: number; role: string | null; session_id: string }>;
    for (const r of rows) {
      const list = out.get(r.session_id) ?? [];
      list.push({ id: r.id, role: (r.role as MemoryRole | null) ?? null });
      out.set(r.session_id, list);
    }
    return out;
  }
}
