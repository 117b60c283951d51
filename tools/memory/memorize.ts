/**
 * memorize: store a note for later recall. With a key it is an upsert (the key names one memory,
 * and memorizing under it again replaces it); without a key, memorizing identical text again
 * returns the existing memory instead of a duplicate, so a retried call is harmless.
 */
import { z } from 'zod';
import { success } from '../core/result';
import { defineTool } from '../core/tool';
import { keyInput, memoryJson, tagInput } from './memory-format';
import type { MemoryStore } from './memory-store';

const input = z.object({
  text: z.string().trim().min(1).max(20_000).describe('A note that makes sense on its own.'),
  tags: z.array(tagInput).max(16).default([]),
  key: keyInput.optional().describe('A stable name, e.g. "user.favorite_color"; the same key replaces.'),
});

export function memorizeTool(store: MemoryStore) {
  return defineTool({
    id: 'memorize',
    title: 'Memorize',
    description: 'Keeps a note in long-term memory, found later with recall, also after a restart.',
    input,
    metadata: { category: 'memory', risk: 'MEDIUM' },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    run(args) {
      const tags = [...new Set(args.tags)];
      const { memory, outcome } = store.remember(args.text, tags, args.key);
      const verb = { created: 'Memorized', replaced: 'Replaced', already_known: 'Already remembered' }[outcome];
      return success(`${verb} as #${memory.id}${memory.key ? ` (key ${JSON.stringify(memory.key)})` : ''}.`, {
        outcome,
        ...memoryJson(memory),
      });
    },
  });
}
