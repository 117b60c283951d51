/**
 * Rule: a host with a GitHub token set registers every tool id of the seed's catalog (section 3:
 * 110 ids). Each one is found by its seed id, declares its category and risk, and is published
 * under a name every MCP client accepts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_NAME_PATTERN, publishedName } from '../../tools/core/published-name';
import { SEED_CATALOG } from '../fixtures/seed-catalog';
import { type TestHost, startTestHost } from './harness';

let t: TestHost;
beforeAll(async () => {
  t = await startTestHost({
    env: { ...process.env, TOOLGATE_GITHUB_TOKEN: 'ghp_catalogCheck00000000000000000000000001' },
  });
});
afterAll(async () => t?.dispose());

const groups = Object.entries(SEED_CATALOG);

describe("the seed's catalog", () => {
  it('has 110 distinct ids, 18 of them terminals', () => {
    expect(Object.values(SEED_CATALOG).flat()).toHaveLength(110);
    expect(new Set(Object.values(SEED_CATALOG).flat()).size).toBe(110);
    expect(SEED_CATALOG.terminal).toHaveLength(18);
  });

  it.each(groups)('registers every %s id', (_group, ids) => {
    const missing = ids.filter((id) => !t.host.registry.has(id));
    expect(missing).toEqual([]);
  });

  it('registers all 110 ids, each declared and published under a valid name', () => {
    const ids = groups.flatMap(([, list]) => list);
    expect(ids).toHaveLength(110);
    for (const id of ids) {
      const tool = t.host.registry.get(id);
      expect({
        id,
        category: tool?.metadata.category !== undefined,
        name: PUBLISHED_NAME_PATTERN.test(publishedName(id)),
      }).toEqual({
        id,
        category: true,
        name: true,
      });
    }
  });

  it('puts the new families in their categories', () => {
    const category = (id: string) => t.host.registry.get(id)?.metadata.category;
    expect(SEED_CATALOG.skills?.map(category)).toEqual(Array(5).fill('skills'));
    expect(SEED_CATALOG.github?.map(category)).toEqual(Array(7).fill('github'));
    expect(SEED_CATALOG.cognitiveMemory?.map(category)).toEqual(Array(3).fill('cognitive_memory'));
  });
});
