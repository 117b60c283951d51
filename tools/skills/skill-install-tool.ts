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
      'Installs an Agent Skill (a folder with SKILL.md), checked and never run; the person approves first. Its ' +
      'tools become skill_<name>_<tool>.',
    input: z.object({
      source: z
        .string()
        .trim()
        .min(1)
        .max(2000)
        .describe('A workspace folder or archive (.zip, .skill, .tgz), or its https:// URL.'),
      replace: z.boolean().default(false).describe('Else an installed name is refused.'),
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
        message:
          `${replaced ? 'Replaced' : 'Installed'} the skill ` +
          `'${skill.name}'${tools.length ? `; its tools: ${tools.join(', ')}` : ''}. Its instructions are the prompt ` +
          `'${skill.name}' and the resource skill://${skill.name}/SKILL.md.`,
        skill: skillView(skill),
      });
    },
  });
}
