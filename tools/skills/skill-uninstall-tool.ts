/**
 * skill_uninstall: removes an installed skill, its folder, its prompt and resource, and its tools at once. Needs
 * approval.
 */
import { z } from 'zod';
import { publishedName } from '../core/published-name';
import { jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import type { SkillCatalog } from './skill-catalog';

export function skillUninstallTool(catalog: SkillCatalog) {
  return defineTool({
    id: 'skill_uninstall',
    title: 'Uninstall a skill',
    description: 'Removes an installed skill and its tools; the person approves first.',
    input: z.object({
      name: z.string().trim().min(1).max(64).describe('As skill_list names it.'),
    }),
    metadata: { category: 'skills', risk: 'HIGH' },
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'mutating',
    async run(args) {
      const removed = await catalog.uninstall(args.name);
      const tools = removed.tools.filter((t) => t.state === 'registered').map((t) => publishedName(t.id));
      return jsonSuccess({
        removed: removed.name,
        toolsRemoved: tools,
        message: `Removed the skill '${removed.name}'${tools.length ? ` and its tools ${tools.join(', ')}` : ''}.`,
      });
    },
  });
}
