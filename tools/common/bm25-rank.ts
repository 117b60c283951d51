/**
 * Ranks a handful of texts against a query with SQLite FTS5's BM25, in a private in-memory
 * database built for the one question: the same ranking, tokenizer and stemming (porter,
 * unicode61) as the memory store, for lists that live outside it (skills, shortcuts, tool
 * sequences). This is word matching, weighted by how rare a word is and how short the field: no
 * embeddings, no notion of synonyms.
 */
import { toFtsQuery } from './fts-query';
import { openSqlite } from './sqlite';

export interface RankDocument {
  id: string;
  /** Field texts, in the order of the weights. */
  fields: readonly string[];
}

export interface Ranked {
  id: string;
  /** Higher is better (negated bm25). */
  score: number;
}

/** Ids and tool ids read as words: `app_launch` and `skill.web-form` match "app", "launch", "web", "form". */
function words(text: string): string {
  return text.replace(/[_.:/-]+/g, ' ');
}

export function bm25Rank(docs: readonly RankDocument[], query: string, weights: readonly number[]): Ranked[] {
  const match = toFtsQuery(words(query));
  if (match === undefined || docs.length === 0) return [];
  const columns = weights.map((_, i) => `f${i}`);
  const db = openSqlite(':memory:');
  try {
    db.exec(
      `CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, ${columns.join(', ')}, ` +
        `tokenize = 'porter unicode61 remove_diacritics 2')`,
    );
    const insert = db.prepare(
      `INSERT INTO docs (id, ${columns.join(', ')}) VALUES (?, ${columns.map(() => '?').join(', ')})`,
    );
    for (const doc of docs) insert.run(doc.id, ...columns.map((_, i) => words(doc.fields[i] ?? '')));
    const rows = db
      .prepare(`SELECT id, bm25(docs, 0, ${weights.join(', ')}) AS rank FROM docs WHERE docs MATCH ? ORDER BY rank`)
      .all(match) as Array<{ id: string; rank: number }>;
    return rows.map((r) => ({ id: r.id, score: Number((-r.rank).toFixed(4)) }));
  } finally {
    db.close();
  }
}
