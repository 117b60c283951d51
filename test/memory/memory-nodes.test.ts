/**
 * Rule: what memorize stores are nodes with a name (the key) and a role (app, device, screen,
 * person, fact). memory_search_nodes finds them by name, by words and by role; a node renamed or
 * merged keeps its old names as aliases, so a search by an old name finds it (and says which old
 * name matched), and memorize and forget by an old name act on it. Ranking is BM25 over words.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORY_MIGRATIONS, ensureMemorySchema } from '../../tools/memory/schema';
import { MemoryStore } from '../../tools/memory';
import { type TestHost, connectClient, startTestHost } from '../host/harness';
import { answerApprovals } from '../skills/support/approvals';

let t: TestHost;
let client: Client;

beforeAll(async () => {
  t = await startTestHost();
  client = await connectClient(t.host, 'node-keeper');
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

type Node = {
  id: number;
  key: string | null;
  role?: string;
  aliases?: string[];
  match: string;
  matchedAlias?: string;
  text: string;
};
async function call(name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })).structuredContent as Record<string, unknown> & {
    nodes?: Node[];
    code?: string;
    data?: { fields?: string[] };
  };
}

describe('nodes with roles', () => {
  it('stores a role with a memory and filters the search by it', async () => {
    await call('memorize', {
      key: 'settings-app',
      role: 'app',
      text: 'The Settings app is com.android.settings; Wi-Fi is under Network.',
    });
    await call('memorize', { key: 'person.bob', role: 'person', text: 'Bob maintains the settings backend.' });
    await call('memorize', { key: 'pixel-7', role: 'device', text: 'The Pixel 7 test phone runs Android 14.' });
    const all = await call('memory_search_nodes', { query: 'settings' });
    expect(all.nodes?.map((n) => n.key).sort()).toEqual(['person.bob', 'settings-app']);
    const apps = await call('memory_search_nodes', { query: 'settings', role: 'app' });
    expect(apps.nodes?.map((n) => [n.key, n.role])).toEqual([['settings-app', 'app']]);
  });

  it('puts the node with exactly that name first', async () => {
    const r = await call('memory_search_nodes', { query: 'pixel-7' });
    expect(r.nodes?.[0]).toMatchObject({ key: 'pixel-7', role: 'device', match: 'name' });
  });
});

describe('renamed and merged nodes keep their old names', () => {
  it('renames a node, and a search by the old name finds it as an alias', async () => {
    const renamed = await call('memorize', {
      key: 'app.settings',
      renameFrom: 'settings-app',
      role: 'app',
      text: 'The Settings app is com.android.settings; Wi-Fi is under Network & internet.',
    });
    expect(renamed).toMatchObject({ outcome: 'renamed', key: 'app.settings', aliases: ['settings-app'] });
    const byOld = await call('memory_search_nodes', { query: 'settings-app' });
    expect(byOld.nodes?.[0]).toMatchObject({ key: 'app.settings', match: 'alias', matchedAlias: 'settings-app' });
  });

  it('updates the renamed node when memorizing under its old name', async () => {
    const r = await call('memorize', {
      key: 'settings-app',
      text: 'Settings: com.android.settings (Wi-Fi under Network & internet).',
    });
    expect(r).toMatchObject({ outcome: 'replaced', key: 'app.settings' });
  });

  it('merges one node into another, keeping both names and the tags of both', async () => {
    await call('memorize', {
      key: 'person.robert',
      role: 'person',
      text: 'Robert owns the release.',
      tags: ['release'],
    });
    const merged = await call('memorize', {
      key: 'person.robert',
      renameFrom: 'person.bob',
      text: 'Robert (Bob) owns the release and the settings backend.',
    });
    expect(merged).toMatchObject({
      outcome: 'merged',
      key: 'person.robert',
      role: 'person',
      aliases: ['person.bob'],
      tags: ['release'],
    });
    const people = await call('memory_search_nodes', { query: 'backend', role: 'person' });
    expect(people.nodes?.map((n) => n.key)).toEqual(['person.robert']);
    expect((await call('memory_search_nodes', { query: 'person.bob' })).nodes?.[0]).toMatchObject({
      key: 'person.robert',
      match: 'alias',
    });
  });

  it('forgets a node by an old name (forget asks first)', async () => {
    const approver = answerApprovals(t.host);
    const r = await call('forget', { key: 'person.bob' });
    approver.stop();
    expect(r).toMatchObject({ forgotten: { key: 'person.robert' } });
    expect((await call('memory_search_nodes', { query: 'robert' })).nodes).toEqual([]);
  });
});

describe('bad input', () => {
  it('needs a key to rename to, and an existing node to rename', async () => {
    expect(await call('memorize', { renameFrom: 'pixel-7', text: 'x' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      data: { fields: ['key', 'renameFrom'] },
    });
    expect(await call('memorize', { key: 'a.b', renameFrom: 'never-was', text: 'x' })).toMatchObject({
      code: 'NOT_FOUND',
      data: { fields: ['renameFrom'] },
    });
  });

  it('refuses an unknown role and an empty query, naming the field', async () => {
    expect(await call('memorize', { text: 'x', role: 'planet' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      data: { fields: ['role'] },
    });
    expect(await call('memory_search_nodes', { query: '  ' })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      data: { fields: ['query'] },
    });
  });

  it('matches FTS syntax in a query literally, never failing', async () => {
    expect(await call('memory_search_nodes', { query: '"NEAR(pixel' })).toMatchObject({ count: expect.any(Number) });
  });
});

describe('the node columns arrive by migration', () => {
  it('upgrades a database of the first memory schema, keeping its memories and indexing them anew', () => {
    const dir = mkdtempSync(join(tmpdir(), 'memory-v1-'));
    const db = new DatabaseSync(join(dir, 'toolgate.db'));
    try {
      db.exec(MEMORY_MIGRATIONS[0] as string);
      db.exec('CREATE TABLE schema_versions (component TEXT PRIMARY KEY, version INTEGER NOT NULL)');
      db.prepare("INSERT INTO schema_versions VALUES ('memory', 1)").run();
      db.prepare(
        'INSERT INTO memory_items (key, text, tags, created_at, updated_at) ' +
          "VALUES ('old.one', 'written by version one', '[]', 1, 1)",
      ).run();
      expect(ensureMemorySchema(db)).toBe(MEMORY_MIGRATIONS.length);
      const store = new MemoryStore(db);
      expect(store.search('version', [], 5).memories.map((m) => [m.key, m.role, m.aliases])).toEqual([
        ['old.one', null, []],
      ]);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
