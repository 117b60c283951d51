/**
 * Rule: memory survives a restart, recall accepts any text as a query (FTS syntax is matched
 * literally, never an error), ranks by bm25 and filters by tags; forget deletes exactly one
 * memory chosen by id or key; memorize is safe to retry.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../tools/core/permission';
import type { ToolResult } from '../../tools/core/result';
import { ensureMemorySchema, memoryTools } from '../../tools/memory';
import { familyPipeline } from '../support/family-pipeline';

let dir: string;
let db: DatabaseSync;
let clock: number;
/** What a person was asked, by the pipeline the tools run behind. */
let asked: ApprovalRequest[];

function open() {
  db = new DatabaseSync(join(dir, 'toolgate.db'));
  const family = familyPipeline({ tools: memoryTools({ db, now: () => clock }) });
  asked = family.approvals;
  return (toolId: string, args: unknown) => family.call(toolId, args);
}

type Structured = {
  id: number;
  outcome: string;
  memories: Array<{ id: number; text: string; tags: string[]; score?: number }>;
  count: number;
};
const data = (r: ToolResult) => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.structured as Structured;
};
const ids = (r: ToolResult) => data(r).memories.map((m) => m.id);

let call: ReturnType<typeof open>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'memory-'));
  clock = Date.UTC(2025, 0, 1);
  call = open();
});
afterEach(() => {
  if (db.isOpen) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('memory refuses bad input with readable errors', () => {
  it('refuses forget without an id or key, and with both', async () => {
    for (const args of [{}, { id: 1, key: 'k' }]) {
      const r = await call('forget', args);
      expect(r.ok || r.error.code).toBe('INVALID_ARGUMENT');
    }
  });

  it('answers NOT_FOUND for a memory that does not exist', async () => {
    const r = await call('forget', { id: 999 });
    expect(r.ok || r.error).toMatchObject({ code: 'NOT_FOUND', hint: expect.stringContaining('recall') });
    expect(r.ok || (await call('forget', { key: 'nope' })).ok).toBe(false);
  });

  it('refuses an empty memory', async () => {
    const r = await call('memorize', { text: '   ' });
    expect(r.ok || r.error.code).toBe('INVALID_ARGUMENT');
  });

  it.each([
    '"unterminated',
    'nul\0byte',
    'coffee*',
    'NEAR(coffee tea)',
    '-coffee',
    'text:coffee',
    'coffee AND OR NOT',
    '(coffee',
    '^coffee',
    '"" ""',
    'a"b"c',
    '***',
    '-',
  ])('treats the FTS syntax in %j as plain text instead of failing', async (query) => {
    await call('memorize', { text: 'I like coffee in the morning' });
    const r = await call('recall', { query });
    expect(r.ok).toBe(true);
  });

  it('never fails on any query text at all', async () => {
    await call('memorize', { text: 'near the end of the line' });
    const ftsSyntax = fc.constantFrom(
      '"',
      '*',
      'NEAR',
      'AND',
      'OR',
      'NOT',
      '-',
      '+',
      '(',
      ')',
      ':',
      '^',
      '{',
      '}',
      ',',
      ' ',
      '\0',
      'end',
      'line',
    );
    for (const query of [fc.string({ maxLength: 60, unit: 'binary' }), fc.string({ maxLength: 30, unit: ftsSyntax })]) {
      await fc.assert(
        fc.asyncProperty(query, async (q) => {
          expect((await call('recall', { query: q })).ok).toBe(true);
        }),
        { numRuns: 300 },
      );
    }
  });

  it('says so when a query has no searchable word', async () => {
    await call('memorize', { text: 'something' });
    const r = await call('recall', { query: '*** -- ""' });
    expect(data(r).count).toBe(0);
    expect(r.ok && r.content[0]).toMatchObject({ text: expect.stringContaining('no words to search for') });
  });
});

describe('memorize, recall and forget', () => {
  it('ranks the memory matching more of the words first (bm25), and finds word forms by stem', async () => {
    const a = data(await call('memorize', { text: 'The staging server runs on port 8080' })).id;
    const b = data(await call('memorize', { text: 'Lunch is at noon' })).id;
    const c = data(
      await call('memorize', { text: 'The staging database is postgres; the staging server was rebooted' }),
    ).id;
    expect(ids(await call('recall', { query: 'staging server port' }))).toEqual([a, c]);
    expect(ids(await call('recall', { query: 'running servers' }))).toEqual(expect.arrayContaining([a, c]));
    expect(ids(await call('recall', { query: 'lunch' }))).toEqual([b]);
    const scores = data(await call('recall', { query: 'staging server port' })).memories.map((m) => m.score ?? 0);
    expect(scores[0]).toBeGreaterThan(scores[1] ?? Infinity);
  });

  it('filters by tags, requiring all of them, and limits the count', async () => {
    const both = data(await call('memorize', { text: 'deploy with make release', tags: ['Project X', 'howto'] })).id;
    data(await call('memorize', { text: 'deploy notes for project y', tags: ['project-y', 'howto'] }));
    expect(ids(await call('recall', { query: 'deploy', tags: ['project-x', 'HOWTO'] }))).toEqual([both]);
    expect(data(await call('recall', { query: 'deploy', tags: ['howto'] })).count).toBe(2);
    expect(data(await call('recall', { query: 'deploy', limit: 1 })).count).toBe(1);
  });

  it('lists the most recently updated memories when there is no query', async () => {
    const first = data(await call('memorize', { text: 'first' })).id;
    clock += 1000;
    const second = data(await call('memorize', { text: 'second' })).id;
    expect(ids(await call('recall', {}))).toEqual([second, first]);
  });

  it('replaces the memory under an existing key instead of adding another', async () => {
    const first = data(await call('memorize', { key: 'user.color', text: 'favorite color is blue' }));
    const second = data(await call('memorize', { key: 'user.color', text: 'favorite color is green' }));
    expect(second).toMatchObject({ id: first.id, outcome: 'replaced' });
    expect(ids(await call('recall', { query: 'blue' }))).toEqual([]);
    expect(data(await call('recall', { query: 'green' })).memories[0]).toMatchObject({
      id: first.id,
      text: 'favorite color is green',
    });
  });

  it('returns the same memory when identical keyless text is memorized again, so a retry adds nothing', async () => {
    const first = data(await call('memorize', { text: 'the wifi password is on the fridge', tags: ['home'] }));
    const again = data(await call('memorize', { text: 'the wifi password is on the fridge', tags: ['wifi'] }));
    expect(again).toMatchObject({ id: first.id, outcome: 'already_known', tags: ['home', 'wifi'] });
    expect(data(await call('recall', { query: 'wifi' })).count).toBe(1);
  });

  it('forgets by id and by key, and never reuses a forgotten id', async () => {
    const a = data(await call('memorize', { text: 'alpha note' })).id;
    data(await call('memorize', { key: 'k', text: 'beta note' }));
    expect((await call('forget', { id: a })).ok).toBe(true);
    expect((await call('forget', { key: 'k' })).ok).toBe(true);
    // forget is destructive: a person approved each one.
    expect(asked.map((r) => [r.toolId, r.args])).toEqual([
      ['forget', { id: a }],
      ['forget', { key: 'k' }],
    ]);
    expect(data(await call('recall', { query: 'note' })).count).toBe(0);
    expect(data(await call('memorize', { text: 'gamma note' })).id).toBeGreaterThan(a + 1);
  });

  it('survives closing and reopening the database file', async () => {
    const id = data(
      await call('memorize', { key: 'release', text: 'Release 2.1 ships on Friday', tags: ['schedule'] }),
    ).id;
    db.close();
    call = open();
    const r = data(await call('recall', { query: 'when does the release ship', tags: ['schedule'] }));
    expect(r.memories[0]).toMatchObject({ id, text: 'Release 2.1 ships on Friday', tags: ['schedule'] });
  });

  it('records its schema version, and migrating again changes nothing', async () => {
    const id = data(await call('memorize', { text: 'kept across migrations' })).id;
    const version = ensureMemorySchema(db);
    expect(ensureMemorySchema(db)).toBe(version);
    expect(db.prepare("SELECT version FROM schema_versions WHERE component = 'memory'").get()).toEqual({ version });
    expect(ids(await call('recall', { query: 'migrations' }))).toEqual([id]);
  });

  it('adopts a database whose memory tables predate schema versions, keeping its memories', async () => {
    const id = data(await call('memorize', { text: 'written before versions existed' })).id;
    db.exec('DROP TABLE schema_versions');
    db.close();
    call = open();
    expect(ids(await call('recall', { query: 'versions' }))).toEqual([id]);
    expect(db.prepare("SELECT version FROM schema_versions WHERE component = 'memory'").get()).toMatchObject({
      version: expect.any(Number),
    });
  });

  it('refuses memory tables written by a newer Toolgate instead of guessing', () => {
    db.prepare("UPDATE schema_versions SET version = 99 WHERE component = 'memory'").run();
    expect(() => ensureMemorySchema(db)).toThrow(/newer Toolgate \(memory schema 99/);
  });
});

describe('memory catalog', () => {
  it('publishes memorize, recall and forget as closed-world tools; recall read-only; forget destructive', () => {
    const tools = new Map(memoryTools({ db }).map((t) => [t.id, t.metadata.annotations]));
    expect([...tools.keys()]).toEqual(['memorize', 'recall', 'forget', 'memory_search_nodes']);
    expect(tools.get('memorize')).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(tools.get('recall')).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(tools.get('forget')).toMatchObject({ destructiveHint: true, openWorldHint: false });
  });

  it('adds memory_recent_episodes and memory_recall_macro given their sources, all three read-only memory', () => {
    const tools = memoryTools({ db, episodes: { spans: () => [], approvals: () => [] }, macros: () => [] });
    const cognitive = tools.filter((t) => t.metadata.category === 'cognitive_memory');
    expect(cognitive.map((t) => t.id)).toEqual([
      'memory_search_nodes',
      'memory_recent_episodes',
      'memory_recall_macro',
    ]);
    for (const t of cognitive)
      expect([t.id, t.metadata.risk, t.metadata.annotations.readOnlyHint]).toEqual([t.id, 'LOW', true]);
  });
});
