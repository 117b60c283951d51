/** skill_list: the installed skills with their tools (as the client calls them), source and state. */
import { z } from 'zod';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import type { SkillCatalog } from './skill-catalog';
import { skillView } from './skill-results';

export function skillListTool(catalog: SkillCatalog) {
  return defineTool({
    id: 'skill_list',
    title: 'List skills',
    description:
      'Lists the installed skills: name, description, state (enabled, disabled), where each came from, and the tools each brings with the name to call them by. Give a name to get that one skill with its full instructions.',
    input: z.object({
      name: z
        .string()
        .trim()
        .min(1)
        .max(64)
        .optional()
        .describe('One skill to show, with its instructions (SKILL.md body); omit to list all without instructions.'),
    }),
    metadata: { category: 'skills', risk: 'LOW' },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    run(args) {
      if (args.name !== undefined) {
        const skill = catalog.get(args.name);
        if (!skill) {
          throw new ToolCallError('NOT_FOUND', `No skill named '${args.name}' is installed.`, {
            hint: 'Call skill_list without a name to see the installed skills, or skill_search to find one.',
            data: { fields: ['name'] },
          });
        }
        return jsonSuccess({ skills: [skillView(skill, true)] });
      }
      const skills = catalog.list().map((s) => skillView(s));
      return jsonSuccess({ count: skills.length, skills });
    },
  });
}
