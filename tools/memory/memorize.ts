/**
 * memorize: store a note for later recall. With a key it is an upsert (the key names one memory,
 * and memorizing under it again replaces it); without a key, memorizing identical text again
 * returns the existing memory instead of a duplicate, so a retried call is harmless.
 */
import { z } from 'zod';
import { ToolCallError, success } from '../core/result';
import { defineTool } from '../core/tool';
import { keyInput, memoryJson, roleInput, tagInput } from './memory-format';
import type { MemoryNodes } from './memory-nodes';
import type { MemoryStore } from './memory-store';

const input = z.object({
  text: z.string().trim().min(1).max(20_000).describe('Makes sense on its own.'),
  tags: z.array(tagInput).max(16).default([]),
  key: keyInput.optional().describe('A stable name, e.g. "user.color"; the same key replaces.'),
  role: roleInput.optional(),
  renameFrom: keyInput.optional().describe('Its name until now, kept as an alias; renamed to key, or merged into it.'),
});

export function memorizeTool(store: MemoryStore, nodes: MemoryNodes) {
  return defineTool({
    id: 'memorize',
    title: 'Memorize',
    description: 'Keeps a note in long-term memory, for recall or memory_search_nodes later, also after a restart.',
    input,
    metadata: { category: 'memory', risk: 'MEDIUM' },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    run(args, ctx) {
      const tags = [...new Set(args.tags)];
      const options = { ...(args.role ? { role: args.role } : {}), sessionId: ctx.sessionId };
      if (args.renameFrom !== undefined) {
        if (args.key === undefined) {
          throw new ToolCallError('INVALID_ARGUMENT', 'Invalid arguments: renameFrom needs key, the new name.', {
            hint: 'Pass key (the new name) with renameFrom (the old one).',
            data: { fields: ['key', 'renameFrom'] },
          });
        }
        const renamed = nodes.rename(args.renameFrom, args.key, args.text, tags, options);
        if (!renamed) {
          throw new ToolCallError(
            'NOT_FOUND',
            `There is no memory named ${JSON.stringify(args.renameFrom)} to rename.`,
            {
              hint: 'Find the memory and its name with memory_search_nodes, then retry.',
              data: { fields: ['renameFrom'] },
            },
          );
        }
        const verb = renamed.outcome === 'merged' ? 'Merged' : 'Renamed';
        return success(
          `${verb} ${JSON.stringify(args.renameFrom)} into #${renamed.memory.id} ` +
            `(key ${JSON.stringify(args.key)}); the old name stays as an alias.`,
          { outcome: renamed.outcome, ...memoryJson(renamed.memory) },
        );
      }
      const { memory, outcome } = store.remember(args.text, tags, args.key, options);
      const verb = { created: 'Memorized', replaced: 'Replaced', already_known: 'Already remembered' }[outcome];
      return success(`${verb} as #${memory.id}${memory.key ? ` (key ${JSON.stringify(memory.key)})` : ''}.`, {
        outcome,
        ...memoryJson(memory),
      });
    },
  });
}
