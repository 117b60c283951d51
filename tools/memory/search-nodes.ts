/**
 * memory_search_nodes: memory nodes by name, old name or words, optionally of one role. A node
 * found by a name it had before says so (match "alias"), which is how a renamed or merged node is
 * still found under what it used to be called. Ranking is BM25 over the words of text, name and
 * aliases (SQLite FTS5 with stemming), with exact names first: no embeddings.
 */
import { z } from 'zod';
import { success } from '../core/result';
import { defineTool } from '../core/tool';
import { memoryJson, roleInput } from './memory-format';
import type { MemoryNodes } from './memory-nodes';

const SHOWN_CHARS = 1000;

export function searchNodesTool(nodes: MemoryNodes) {
  return defineTool({
    id: 'memory_search_nodes',
    title: 'Search memory nodes',
    description:
      'Finds what memorize stored by name, old name or words of its text: exact names first, then word matches ' +
      '(use words the memory contains).',
    input: z.object({
      query: z.string().trim().min(1).max(500).describe('A name, old or current, or words.'),
      role: roleInput.optional(),
      limit: z.number().int().min(1).max(50).default(10),
    }),
    metadata: { category: 'cognitive_memory', risk: 'LOW' },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: true,
    },
    runPolicy: 'quickRead',
    run(args) {
      const found = nodes.search(args.query, args.role, args.limit);
      const shown = found.map((n) => ({
        ...memoryJson({ ...n, text: n.text.length > SHOWN_CHARS ? `${n.text.slice(0, SHOWN_CHARS)}…` : n.text }),
        match: n.match,
        ...(n.matchedAlias ? { matchedAlias: n.matchedAlias } : {}),
        ...(n.score !== undefined ? { score: n.score } : {}),
      }));
      const text =
        shown.length === 0
          ? `No memory node${args.role ? ` of role ${args.role}` : ''} matches "${args.query}".`
          : shown
              .map((n) => {
                const key = n.key ? ` ${JSON.stringify(n.key)}` : '';
                const role = n.role ? ` [${n.role}]` : '';
                const was = n.matchedAlias ? ` (was ${JSON.stringify(n.matchedAlias)})` : '';
                return `#${n.id}${key}${role}${was}: ${n.text}`;
              })
              .join('\n');
      return success(text, { count: shown.length, nodes: shown });
    },
  });
}
