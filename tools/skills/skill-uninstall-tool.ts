/** skill_uninstall: removes an installed skill, its folder, its prompt and resource, and its tools at once. Needs approval. */
import { z } from 'zod';
import { publishedName } from '../core/published-name';
import { jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import type { SkillCatalog } from './skill-catalog';

export function skillUninstallTool(catalog: SkillCatalog) {
  return defineTool({
    id: 'skill_uninstall',
    title: 'Uninstall a skill',
    description:
      "Removes an installed skill: its files, its MCP prompt and resource, and the tools it brought (they leave the tool list at once). Needs the user's approval. skill_list names the installed skills.",
    input: z.object({
      name: z
        .string()
        .trim()
        .min(1)
        .max(64)
        .describe('The skill to remove, as skill_list names it (e.g. "web-form-check").'),
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
