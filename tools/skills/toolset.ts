/**
 * The skills family's toolset: skill_search, skill_install, skill_create, skill_list, skill_uninstall and every enabled
 * skill's tools.
 */
import { defineToolset } from '../core/toolset';

export const SKILLS_TOOLSET = defineToolset(
  'skills',
  "Find, install, create and remove Agent Skills; the installed skills' own tools.",
);
