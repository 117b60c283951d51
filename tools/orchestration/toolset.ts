/** The orchestration family's toolset: its tools but version_compare, and every defined shortcut. */
import { defineToolset } from '../core/toolset';

export const ORCHESTRATION_TOOLSET = defineToolset(
  'orchestration',
  'Wait, run several calls in one turn, reshape JSON between them, define and run shortcuts.',
);
