/**
 * Rule (docs/architecture.md#tool-families): the GitHub family is exactly the seed's seven tools,
 * in the github category with every field described; the five reads are LOW, read-only and
 * retried under the network policy, the two writes HIGH (each waits for a person) and never
 * retried.
 */
import { describe, expect, it } from 'vitest';
import { githubTools } from '../../tools/github';

const tools = githubTools(() => {
  throw new Error('not called: the catalog is read without a client');
});

describe('the GitHub family', () => {
  it('is exactly the seven seed tools', () => {
    expect(tools.map((t) => t.id)).toEqual([
      'github_get_user',
      'github_list_repos',
      'github_read_file',
      'github_write_file',
      'github_create_issue',
      'github_list_issues',
      'github_search_code',
    ]);
  });

  it('describes every tool in one line (its fields as test/host/description-style.test.ts says)', () => {
    for (const t of tools) expect(t.description, t.id).toMatch(/^[^\n]{40,320}$/);
  });

  it('declares reads and writes apart', () => {
    for (const t of tools) {
      const write = t.id === 'github_write_file' || t.id === 'github_create_issue';
      expect([
        t.id,
        t.metadata.category,
        t.metadata.risk,
        t.metadata.annotations.readOnlyHint,
        t.metadata.annotations.openWorldHint,
        t.runPolicy,
      ]).toEqual([t.id, 'github', write ? 'HIGH' : 'LOW', !write, true, write ? 'mutating' : 'network']);
    }
    expect(tools.find((t) => t.id === 'github_write_file')?.metadata.annotations.destructiveHint).toBe(true);
  });
});
