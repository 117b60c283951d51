/**
 * The memory family (host side): memorize, recall, forget over the host's SQLite database, and the
 * cognitive memory tools over the same store: memory_search_nodes (nodes by name, old name, role
 * and words), memory_recent_episodes (sessions told from the traces) and memory_recall_macro
 * (shortcuts, skills and mined sequences for a goal). Every ranking is BM25 over words (SQLite
 * FTS5); nothing here uses embeddings.
 *
 * A host wires it as `registry.registerAll(memoryTools({ db, episodes, macros }))`; the host owns
 * and closes `db`. Without `episodes` or `macros` the tools that need them are left out.
 */
import type { Tool } from '../core/tool';
import type { EpisodeSource } from './episodes';
import { forgetTool } from './forget';
import { memorizeTool } from './memorize';
import { MemoryNodes } from './memory-nodes';
import { MemoryStore } from './memory-store';
import { type MacroSource, recallMacroTool } from './recall-macro';
import { recallTool } from './recall';
import { recentEpisodesTool } from './recent-episodes';
import type { SqliteDatabase } from './schema';
import { searchNodesTool } from './search-nodes';

export interface MemoryToolsOptions {
  db: SqliteDatabase;
  /** Clock for created/updated times; injected by tests. */
  now?: () => number;
  /** The traces and approval audit episodes are told from. */
  episodes?: EpisodeSource;
  /** Shortcuts, skills and mined sequences, for memory_recall_macro. */
  macros?: MacroSource;
}

export function memoryTools(options: MemoryToolsOptions): Tool[] {
  const now = options.now ?? Date.now;
  const store = new MemoryStore(options.db, { now });
  const nodes = new MemoryNodes(options.db, store, now);
  return [
    memorizeTool(store, nodes),
    recallTool(store),
    forgetTool(store),
    searchNodesTool(nodes),
    ...(options.episodes ? [recentEpisodesTool(options.episodes, nodes)] : []),
    ...(options.macros ? [recallMacroTool(options.macros)] : []),
  ] as Tool[];
}

export type { ApprovalRecord, Episode, EpisodeSource } from './episodes';
export { toFtsQuery } from './fts-query';
export { MEMORY_ROLES, type Memory, MemoryStore, type MemoryRole, type RecalledMemory } from './memory-store';
export type { MacroCandidate, MacroKind, MacroSource } from './recall-macro';
export { ensureMemorySchema, type SqliteDatabase } from './schema';
