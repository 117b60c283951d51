/** The orchestration family's toolset: its seven tools and every defined shortcut. */
import { defineToolset } from '../core/toolset';

export const ORCHESTRATION_TOOLSET = defineToolset(
  'orchestration',
  'Wait, run several calls in one turn, reshape JSON, compare versions, define and run shortcuts.',
);
