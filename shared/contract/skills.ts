/** Installed skills and the tools they add. Part of the contract (shared/contract.ts). */
import { z } from 'zod';
import { Risk } from './tools';

export const SkillToolView = z.object({
  id: z.string(),
  /** The name MCP clients call it by (skill_<skill>_<tool>). */
  callAs: z.string(),
  kind: z.enum(['steps', 'script']),
  description: z.string(),
  risk: Risk.optional(),
  state: z.enum(['registered', 'disabled', 'unavailable']),
  reason: z.string().optional(),
});
export const SkillView = z.object({
  name: z.string(),
  description: z.string(),
  license: z.string().optional(),
  state: z.enum(['enabled', 'disabled', 'broken']),
  problem: z.string().optional(),
  origin: z.enum(['installed', 'created', 'bundled']),
  source: z.string(),
  installedAt: z.number(),
  files: z.number().int(),
  bytes: z.number().int(),
  tools: z.array(SkillToolView),
  /** SKILL.md as installed. */
  skillMd: z.string(),
});
export type SkillView = z.infer<typeof SkillView>;
