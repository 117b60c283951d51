/**
 * The enabled skills as MCP prompts and resources, so a client loads a skill's instructions only
 * when it needs them: each skill is the prompt `<name>` (its description in prompts/list, its
 * instructions and tools in prompts/get; clients offer it as a slash command) and the resource
 * `skill://<name>/SKILL.md` (the file as installed). A disabled skill is neither.
 */
import type { GetPromptResult, Prompt, ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import type { Disposable } from '../core/disposable';
import { publishedName } from '../core/published-name';
import type { InstalledSkill, SkillCatalog } from './skill-catalog';

export const SKILL_URI_SCHEME = 'skill://';
const skillUri = (name: string) => `${SKILL_URI_SCHEME}${name}/SKILL.md`;

export interface SkillMcpContent {
  prompts(): Prompt[];
  getPrompt(name: string, args: Readonly<Record<string, string>>): GetPromptResult | undefined;
  resources(): Resource[];
  readResource(uri: string): ReadResourceResult | undefined;
  onChange(listener: () => void): Disposable;
}

function enabled(catalog: SkillCatalog): InstalledSkill[] {
  return catalog.list().filter((s) => s.enabled && !s.problem);
}

/** The prompt text: the instructions, the skill's tools as the client names them, and the task. */
export function promptText(skill: InstalledSkill, task: string | undefined): string {
  const tools = skill.tools.filter((t) => t.state === 'registered');
  const toolLines = tools.map((t) => `- ${publishedName(t.id)}: ${t.description}`);
  return [
    `Use the skill "${skill.name}": ${skill.description}`,
    '',
    skill.body.trim(),
    ...(toolLines.length ? ['', 'Tools this skill brings:', ...toolLines] : []),
    ...(task?.trim() ? ['', `Task: ${task.trim()}`] : []),
  ].join('\n');
}

export function skillMcpContent(catalog: SkillCatalog): SkillMcpContent {
  return {
    prompts: () =>
      enabled(catalog).map((s) => ({
        name: s.name,
        title: s.name,
        description: s.description,
        arguments: [{ name: 'task', description: 'What to do with the skill (optional).', required: false }],
      })),
    getPrompt: (name, args) => {
      const skill = catalog.get(name);
      if (!skill?.enabled || skill.problem) return undefined;
      return {
        description: skill.description,
        messages: [{ role: 'user', content: { type: 'text', text: promptText(skill, args.task) } }],
      };
    },
    resources: () =>
      enabled(catalog).map((s) => ({
        uri: skillUri(s.name),
        name: `${s.name}/SKILL.md`,
        title: `${s.name} (SKILL.md)`,
        description: s.description,
        mimeType: 'text/markdown',
        size: Buffer.byteLength(s.skillMd),
      })),
    readResource: (uri) => {
      const match = /^skill:\/\/([a-z0-9-]+)\/SKILL\.md$/.exec(uri);
      const skill = match?.[1] ? catalog.get(match[1]) : undefined;
      if (!skill?.enabled || skill.problem) return undefined;
      return { contents: [{ uri, mimeType: 'text/markdown', text: skill.skillMd }] };
    },
    onChange: (listener) => catalog.onChange(listener),
  };
}
