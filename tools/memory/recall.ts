/**
 * recall: full-text search over memories, best match first (bm25), optionally only memories that
 * carry every given tag. Without a query it lists the most recently updated memories. Any text is
 * a valid query: FTS syntax characters are matched literally (see fts-query.ts).
 */
import { z } from 'zod';
import { success } from '../core/result';
import { defineTool } from '../core/tool';
import { memoryJson, memoryLine, tagInput } from './memory-format';
import type { MemoryStore } from './memory-store';

const input = z.object({
  query: z.string().max(1000).optional().describe('Words; omit for the latest memories.'),
  tags: z.array(tagInput).max(16).default([]).describe('Only memories with all of these.'),
  limit: z.number().int().min(1).max(50).default(10),
});

export function recallTool(store: MemoryStore) {
  return defineTool({
    id: 'recall',
    title: 'Recall',
    description: 'Searches the notes kept with memorize by words, best match first.',
    input,
    metadata: { category: 'memory', risk: 'LOW' },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: true,
    },
    runPolicy: 'quickRead',
    run(args) {
      const tags = [...new Set(args.tags)];
      const { memories, searchable } = store.search(args.query, tags, args.limit);
      const filter = tags.length > 0 ? ` tagged ${tags.join(' + ')}` : '';
      let text: string;
      if (!searchable)
        text = `The query has no words to search for; nothing matched. Use words from the memory you are looking for.`;
      else if (memories.length === 0)
        text = args.query?.trim() ? `No memories${filter} match "${args.query.trim()}".` : `No memories${filter} yet.`;
      else text = memories.map(memoryLine).join('\n\n');
      return success(text, { count: memories.length, memories: memories.map(memoryJson) });
    },
  });
}
