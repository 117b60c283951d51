/**
 * skill_create: writes a new skill from a name, a description, instructions, declared tools and
 * optional text files, checked field by field with the same rules as an installed skill (the
 * generated SKILL.md goes through the same validation), then installed like one. An installed
 * name is refused rather than overwritten.
 */
import { stringify } from 'yaml';
import { z } from 'zod';
import { ARGUMENTS } from '../core/fields';
import { publishedName } from '../core/published-name';
import type { ToolRegistry } from '../core/registry';
import { ToolCallError, jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import type { FieldIssue } from '../orchestration';
import { SKILL_LIMITS, SKILL_MD } from './limits';
import { SkillBundleBuilder, SkillBundleError } from './skill-bundle';
import type { SkillCatalog } from './skill-catalog';
import { skillView } from './skill-results';
import { validateSkill } from './skill-validation';

const FILE_FOLDERS = ['scripts/', 'references/', 'assets/'];
const MAX_FILES = 32;
const MAX_FILE_CHARS = 256 * 1024;

const input = z.object({
  name: z.string().max(64).describe('e.g. "release-notes".'),
  description: z.string().max(1024).describe('What it does and when: models pick skills by it.'),
  instructions: z
    .string()
    .min(1)
    .max(SKILL_LIMITS.skillMdBytes - 8192)
    .describe('The Markdown body of SKILL.md.'),
  license: z.string().max(500).optional().describe('e.g. "MIT", or a bundled license file.'),
  metadata: z.record(z.string().max(64), z.string().max(500)).optional(),
  // Published as plain objects (the full declaration is shortcut_define's schema again); each is
  // checked as SKILL.md's front matter is, with the field named (tools[0].steps).
  tools: z
    .array(ARGUMENTS)
    .max(SKILL_LIMITS.tools)
    .default([])
    .describe('Each {name, description, params, steps or script}, as in shortcut_define.'),
  files: z
    .array(
      z.object({
        path: z.string().max(SKILL_LIMITS.pathChars).describe('Under scripts/, references/ or assets/.'),
        content: z.string().max(MAX_FILE_CHARS),
      }),
    )
    .max(MAX_FILES)
    .default([]),
});

/** The generated SKILL.md's fields are the tool's arguments: a problem in the body is one in `instructions`. */
function argumentField(field: string): string {
  if (field === SKILL_MD || field === 'front matter') return 'instructions';
  return field;
}

export function skillCreateTool(deps: { catalog: SkillCatalog; registry: ToolRegistry }) {
  return defineTool({
    id: 'skill_create',
    title: 'Create a skill',
    description:
      'Creates and installs an Agent Skill: instructions, files, and tools skill_<name>_<tool> (steps over other ' +
      'tools, or a script run in the terminal sandbox).',
    input,
    metadata: { category: 'skills', risk: 'MEDIUM' },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'mutating',
    async run(args) {
      if (deps.catalog.has(args.name)) {
        throw new ToolCallError('INVALID_ARGUMENT', `A skill named '${args.name}' is installed already.`, {
          hint: 'Choose another name, or remove the installed one with skill_uninstall first.',
          data: { fields: ['name'] },
        });
      }
      const issues: FieldIssue[] = [];
      const builder = new SkillBundleBuilder();
      const frontMatter = {
        name: args.name,
        description: args.description,
        ...(args.license ? { license: args.license } : {}),
        ...(args.metadata ? { metadata: args.metadata } : {}),
        ...(args.tools.length ? { tools: args.tools } : {}),
      };
      builder.addFile(SKILL_MD, Buffer.from(`---\n${stringify(frontMatter)}---\n\n${args.instructions.trim()}\n`));
      for (const [i, file] of args.files.entries()) {
        if (!FILE_FOLDERS.some((f) => file.path.startsWith(f))) {
          issues.push({
            field: `files[${i}].path`,
            message: `'${file.path}' must be under scripts/, references/ or assets/`,
          });
          continue;
        }
        try {
          builder.addFile(file.path, Buffer.from(file.content));
        } catch (e) {
          if (!(e instanceof SkillBundleError)) throw e;
          issues.push({ field: `files[${i}].path`, message: e.message });
        }
      }
      const checked = validateSkill(builder.build(), { registry: deps.registry });
      if (!checked.ok) issues.unshift(...checked.issues.map((i) => ({ ...i, field: argumentField(i.field) })));
      if (!checked.ok || issues.length > 0) {
        throw new ToolCallError(
          'INVALID_ARGUMENT',
          `Invalid skill: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}.`,
          {
            hint: 'Fix every listed field and create the skill again.',
            data: { fields: [...new Set(issues.map((i) => i.field))], issues },
          },
        );
      }
      const { skill } = await deps.catalog.install(checked.skill, {
        source: 'skill_create',
        origin: 'created',
        replace: false,
      });
      const tools = skill.tools.map((t) => publishedName(t.id));
      return jsonSuccess({
        created: skill.name,
        message: `Created the skill '${skill.name}'${tools.length ? `; its tools: ${tools.join(', ')}` : ''}.`,
        skill: skillView(skill),
      });
    },
  });
}
