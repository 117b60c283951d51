/**
 * Rule: the network family publishes exactly its four tools with honest metadata: reads are
 * read-only and open-world, http_request mutates, download_file writes.
 */
import { describe, expect, it } from 'vitest';
import { networkTools } from '../../tools/network';

const tools = networkTools({ workspaceRoot: '/tmp' });
const byId = new Map(tools.map((t) => [t.id, t]));

describe('network catalog', () => {
  it('has exactly web_fetch, web_search, http_request and download_file', () => {
    expect(tools.map((t) => t.id).sort()).toEqual(['download_file', 'http_request', 'web_fetch', 'web_search']);
  });

  it('marks web_fetch and web_search read-only, idempotent and open-world at LOW risk', () => {
    for (const id of ['web_fetch', 'web_search']) {
      expect(byId.get(id)?.metadata).toMatchObject({
        category: 'network',
        risk: 'LOW',
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      });
    }
  });

  it('marks http_request as mutating, open-world and sensitive, and never retried blindly', () => {
    expect(byId.get('http_request')?.metadata).toMatchObject({
      risk: 'MEDIUM',
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true, sensitiveAction: true },
    });
    expect(byId.get('http_request')?.runPolicy).toBe('mutating');
  });

  it('marks download_file as a write that may replace a file', () => {
    expect(byId.get('download_file')?.metadata.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
  });
});
