// Rule guarded: the structured family is exactly the seed's 15 tools and text_codepoints, all
// read-only, idempotent, closed-world and LOW risk (docs/architecture.md#tool-families,
// docs/architecture.md#the-tool-contract); how they are described: test/host/description-style.test.ts.
import { describe, expect, it } from 'vitest';
import { structuredTools } from '../../tools/structured';

const tools = structuredTools({ workspaceRoot: process.cwd() });

describe('the structured family', () => {
  it('has exactly the 15 seed tools and text_codepoints', () => {
    expect(tools.map((t) => t.id).sort()).toEqual(
      [
        'base_convert',
        'cron_next',
        'csv_query',
        'datetime',
        'duration_convert',
        'file_hash',
        'json_path',
        'random_generate',
        'regex_extract',
        'regex_replace',
        'string_distance',
        'text_codepoints',
        'text_diff',
        'unit_convert',
        'uuid_generate',
        'xml_extract',
      ].sort(),
    );
  });

  it('declares every tool read-only, idempotent, closed-world, LOW, quickRead', () => {
    for (const t of tools) {
      expect(t.metadata, t.id).toMatchObject({
        category: 'structured',
        risk: 'LOW',
        annotations: {
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
          sensitiveAction: false,
        },
      });
      expect(t.runPolicy, t.id).toBe('quickRead');
    }
  });
});
