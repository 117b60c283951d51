/** forget: delete one memory by id or key. Destructive, so the pipeline asks before it runs. */
import { z } from 'zod';
import { ToolCallError, success } from '../core/result';
import { defineTool } from '../core/tool';
import { keyInput, memoryJson } from './memory-format';
import type { MemoryStore } from './memory-store';

const input = z.object({
  id: z.number().int().min(1).optional().describe('As recall shows it: #12 is 12.'),
  key: keyInput.optional(),
});

export function forgetTool(store: MemoryStore) {
  return defineTool({
    id: 'forget',
    title: 'Forget',
    description: 'Deletes one memory for good, by id or by key (one of the two); find it with recall.',
    input,
    metadata: { category: 'memory', risk: 'MEDIUM' },
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    // Before a person is asked: is there such a memory? Read-only; run looks again.
    precheck(args) {
      if ((args.id === undefined) === (args.key === undefined)) return;
      const found = args.id !== undefined ? store.get(args.id) : store.byKey(args.key as string);
      if (found === undefined) throw notFound(args.id !== undefined ? { id: args.id } : { key: args.key as string });
    },
    run(args) {
      if ((args.id === undefined) === (args.key === undefined)) {
        throw new ToolCallError('INVALID_ARGUMENT', 'Invalid arguments: give exactly one of "id" or "key".', {
          hint: 'Pass the id shown by recall, or the key the memory was stored under, not both.',
          data: { fields: ['id', 'key'] },
        });
      }
      const target = args.id !== undefined ? { id: args.id } : { key: args.key as string };
      const removed = store.forget(target);
      if (!removed) throw notFound(target);
      return success(`Forgot #${removed.id}${removed.key ? ` (key ${JSON.stringify(removed.key)})` : ''}.`, {
        forgotten: memoryJson(removed),
      });
    },
  });
}

function notFound(target: { id: number } | { key: string }): ToolCallError {
  const what = 'id' in target ? `#${target.id}` : `with key ${JSON.stringify(target.key)}`;
  return new ToolCallError('NOT_FOUND', `There is no memory ${what}.`, {
    hint: 'Use recall to find the memory and its id, then retry.',
  });
}
