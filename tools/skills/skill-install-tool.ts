/**
 * skill_install: a skill from a workspace folder or archive, or an https archive, checked whole
 * (files, SKILL.md, declared tools) before anything lands, then installed atomically. It changes
 * what the agent can do, so every call waits for a person's approval (HIGH). Nothing in the skill
 * is executed by installing it.
 */
import { z } from 'zod';
import { publishedName } from '../core/published-name';
import type { ToolRegistry } from '../core/registry';
import { jsonSuccess } from '../core/result';
import { defineTool } from '../core/tool';
import type { FilesOptions } from '../files';
import type { FetchLike } from '../network/http-fetch';
import type { SkillCatalog } from './skill-catalog';
import { asBundleRefusal, issuesRefusal, skillView } from './skill-results';
import { readSkillSource } from './skill-sources';
import { validateSkill } from './skill-validation';

export interface SkillInstallDeps {
  catalog: SkillCatalog;
  registry: ToolRegistry;
  files: FilesOptions;
  fetchImpl: FetchLike;
}

export function skillInstallTool(deps: SkillInstallDeps) {
  return defineTool({
    id: 'skill_install',
    title: 'Install a skill',
    description:
      "Installs an Agent Skill (a folder with SKILL.md, optional scripts/, references/, assets/) from a workspace folder, a workspace archive (.zip, .skill, .tar.gz, .tgz) or an https:// URL of an archive. Everything is checked before anything lands (front matter, name rules, sizes, paths, no links or devices); nothing in it is run. The skill becomes an MCP prompt and the resource skill://<name>/SKILL.md, and the tools it declares become skill_<name>_<tool>. Needs the user's approval.",
    input: z.object({
      source: z
        .string()
        .trim()
        .min(1)
        .max(2000)
        .describe(
          'A workspace folder holding SKILL.md (e.g. "skills/pdf-tools"), a workspace archive (.zip, .skill, .tar.gz, .tgz), or an https:// URL of such an archive.',
        ),
      replace: z
        .boolean()
        .default(false)
        .describe('Replace an installed skill of the same name (default false: an installed name is refused).'),
    }),
    metadata: { category: 'skills', risk: 'HIGH' },
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: false,
    },
    runPolicy: 'mutating',
    async run(args, ctx) {
      let read: Awaited<ReturnType<typeof readSkillSource>>;
      try {
        read = await readSkillSource(args.source, {
          files: deps.files,
          fetchImpl: deps.fetchImpl,
          signal: ctx.signal,
          downloadTimeoutMs: 45_000,
        });
      } catch (e) {
        throw asBundleRefusal(e, args.source);
      }
      const checked = validateSkill(read.files, {
        registry: deps.registry,
        ...(read.folderName ? { folderName: read.folderName } : {}),
      });
      if (!checked.ok) throw issuesRefusal(checked.issues, read.source);
      const { skill, replaced } = await deps.catalog.install(checked.skill, {
        source: read.source,
        origin: 'installed',
        replace: args.replace,
      });
      const tools = skill.tools.map((t) => publishedName(t.id));
      return jsonSuccess({
        installed: skill.name,
        replaced,
        message: `${replaced ? 'Replaced' : 'Installed'} the skill '${skill.name}'${tools.length ? `; its tools: ${tools.join(', ')}` : ''}. Its instructions are the prompt '${skill.name}' and the resource skill://${skill.name}/SKILL.md.`,
        skill: skillView(skill),
      });
    },
  });
}
