/**
 * Shortcuts (named sequences of calls) and the suggestions made from repeated calls. Part of the
 * contract (shared/contract.ts).
 */
import { z } from 'zod';

export const ShortcutParam = z.object({
  name: z.string(),
  type: z.string(),
  description: z.string().optional(),
  required: z.boolean().optional(),
  default: z.unknown().optional(),
});
export const ShortcutDefinition = z.object({
  id: z.string(),
  description: z.string(),
  preconditions: z.array(z.unknown()).optional(),
  params: z.array(ShortcutParam).default([]),
  steps: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()).default({}) })),
});
export type ShortcutDefinition = z.infer<typeof ShortcutDefinition>;
export const ShortcutSuggestion = z.object({
  tools: z.array(z.string()),
  count: z.number(),
  /**
   * Why it is suggested: how often its calls all succeeded in this order, out of how often they were made in it, and
   * when.
   */
  evidence: z.object({
    count: z.number(),
    seen: z.number(),
    successRate: z.number(),
    lastSeen: z.number(),
    sessions: z.number(),
  }),
  draft: ShortcutDefinition,
});
export type ShortcutSuggestion = z.infer<typeof ShortcutSuggestion>;
