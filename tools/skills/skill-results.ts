/** What the skills tools answer: a skill as a model reads it, and refusals that name their field. */
import { publishedName } from '../core/published-name';
import { ToolCallError } from '../core/result';
import type { FieldIssue } from '../orchestration';
import type { InstalledSkill } from './skill-catalog';
import { SKILL_URI_SCHEME } from './skill-mcp-content';
import { SkillBundleError } from './skill-bundle';

export function skillView(skill: InstalledSkill, withBody = false) {
  return {
    name: skill.name,
    description: skill.description,
    ...(skill.license ? { license: skill.license } : {}),
    ...(skill.compatibility ? { compatibility: skill.compatibility } : {}),
    ...(Object.keys(skill.metadata).length ? { metadata: skill.metadata } : {}),
    state: skill.problem ? 'broken' : skill.enabled ? 'enabled' : 'disabled',
    ...(skill.problem ? { problem: skill.problem } : {}),
    origin: skill.origin,
    source: skill.source,
    installedAt: new Date(skill.installedAt).toISOString(),
    files: skill.files,
    bytes: skill.bytes,
    tools: skill.tools.map((t) => ({
      id: t.id,
      callAs: publishedName(t.id),
      kind: t.kind,
      description: t.description,
      ...(t.risk ? { risk: t.risk } : {}),
      state: t.state,
      ...(t.reason ? { reason: t.reason } : {}),
    })),
    prompt: skill.name,
    resource: `${SKILL_URI_SCHEME}${skill.name}/SKILL.md`,
    ...(withBody ? { instructions: skill.body } : {}),
  };
}

/** A skill refused before anything landed: the archive or folder broke a rule. */
export function bundleRefusal(e: SkillBundleError, source: string): ToolCallError {
  return new ToolCallError(
    'INVALID_ARGUMENT',
    `The skill at ${source} was refused; nothing was installed: ${e.message}.`,
    {
      hint:
        'Fix the archive or folder (only files and folders, relative ' +
        'paths inside it, within the size limits) and install again.',
      data: { fields: ['source'], issues: [{ field: e.entry ? `entry ${e.entry}` : 'source', message: e.message }] },
    },
  );
}

/** SKILL.md (or a declared tool) does not validate; every problem with its field. */
export function issuesRefusal(issues: readonly FieldIssue[], source: string): ToolCallError {
  return new ToolCallError(
    'INVALID_ARGUMENT',
    `The skill at ${source} was refused; nothing was installed. ` +
      `SKILL.md: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}.`,
    {
      hint: 'Fix every listed SKILL.md field (front matter or declared tools) and install again.',
      data: { fields: ['source'], issues },
    },
  );
}

export function asBundleRefusal(e: unknown, source: string): unknown {
  return e instanceof SkillBundleError ? bundleRefusal(e, source) : e;
}
