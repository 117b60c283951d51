/**
 * The memory family (host side): memorize, recall, forget over the host's SQLite database.
 * A host wires it as `registry.registerToolset(MEMORY_TOOLSET, memoryTools({ db }))`; the host owns and closes `db`.
 */
import type { Tool } from '../core/tool';
import { defineToolset } from '../core/toolset';
import { forgetTool } from './forget';
import { memorizeTool } from './memorize';
import { MemoryStore } from './memory-store';
import { recallTool } from './recall';
import type { SqliteDatabase } from './schema';

export interface MemoryToolsOptions {
  db: SqliteDatabase;
  /** Clock for created/updated times; injected by tests. */
  now?: () => number;
}

export const MEMORY_TOOLSET = defineToolset('memory', 'Keep notes across sessions: memorize, recall by words, forget.');

export function memoryTools(options: MemoryToolsOptions): Tool[] {
  const store = new MemoryStore(options.db, options.now ? { now: options.now } : {});
  return [memorizeTool(store), recallTool(store), forgetTool(store)];
}

export { toFtsQuery } from './fts-query';
export { type Memory, MemoryStore, type RecalledMemory } from './memory-store';
export { ensureMemorySchema, type SqliteDatabase } from './schema';
