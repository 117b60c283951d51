/**
 * The skills family: skill_search, skill_install, skill_create, skill_list, skill_uninstall over
 * Agent Skills (a folder with SKILL.md and optional scripts/, references/, assets/) installed in
 * DATA/skills and indexed by a SkillStore. The tools a skill declares are registered as
 * `skill.<skill>.<tool>` while it is enabled; the enabled skills are also MCP prompts and
 * resources (`content`).
 *
 * Host wiring, after every other family is registered (skill tools are checked against them):
 *   const skills = skillsFamily({ registry, store, dir, files, ... });
 *   registry.registerAll(skills.tools);
 *   await skills.start();   // sweeps staging, registers stored skills, installs the bundled ones once
 */
import type { Tool } from '../core/tool';
import type { ToolRegistry } from '../core/registry';
import type { FilesOptions } from '../files';
import { destinationPolicy, guardedFetch } from '../network/address-guard';
import { connectGuardedFetch } from '../network/guarded-connect';
import type { FetchLike } from '../network/http-fetch';
import type { TelemetryReader } from '../orchestration';
import { seedBundledSkills } from './bundled-skills';
import { SkillCatalog } from './skill-catalog';
import { skillCreateTool } from './skill-create-tool';
import { SkillInstaller } from './skill-installer';
import { skillInstallTool } from './skill-install-tool';
import { skillListTool } from './skill-list-tool';
import { type SkillMcpContent, skillMcpContent } from './skill-mcp-content';
import { skillSearchTool } from './skill-search-tool';
import type { SkillStore } from './skill-store';
import type { SkillScriptRunner } from './skill-tool-compiler';
import { skillUninstallTool } from './skill-uninstall-tool';
import type { SelfGuard } from '../common/self-guard';

export interface SkillsOptions {
  registry: ToolRegistry;
  store: SkillStore;
  /** DATA/skills: one folder per installed skill, and .staging for installs under way. */
  dir: string;
  /** The workspace, for installs from a folder or archive (the files family's rules apply). */
  files: FilesOptions;
  /** Toolgate itself (its port, its data dir), which no download may reach. */
  self: SelfGuard;
  /**
   * How archives and the skill index are downloaded. Default: the network family's guarded fetch
   * with loopback, private and link-local addresses refused, so a download never reaches this
   * host or its network. Tests pass one that trusts their local https server.
   */
  fetchImpl?: FetchLike;
  /** The sandbox for skill scripts (the terminal family); without it script tools answer UNSUPPORTED. */
  scripts?: SkillScriptRunner;
  telemetry?: TelemetryReader;
  /** The skillSourceFolder and skillIndexUrl settings, read on each search. */
  sourceFolder?: () => string | undefined;
  indexUrl?: () => string | undefined;
  /** Install the bundled skills on the first start (default true). */
  seedBundled?: boolean;
  now?: () => number;
}

export interface SkillsFamily {
  tools: Tool[];
  catalog: SkillCatalog;
  content: SkillMcpContent;
  start(): Promise<{ problems: Array<{ name: string; reason: string }> }>;
}

/** The public web only: loopback, private and link-local addresses and Toolgate itself are refused. */
export function publicWebFetch(self: SelfGuard): FetchLike {
  const policy = destinationPolicy(() => true, self);
  return guardedFetch(connectGuardedFetch(policy), policy);
}

export function skillsFamily(options: SkillsOptions): SkillsFamily {
  const now = options.now ?? Date.now;
  const installer = new SkillInstaller(options.dir);
  const catalog = new SkillCatalog({
    store: options.store,
    installer,
    registry: options.registry,
    now,
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    ...(options.scripts ? { scripts: options.scripts } : {}),
  });
  const fetchImpl = options.fetchImpl ?? publicWebFetch(options.self);
  const tools = [
    skillSearchTool(catalog, {
      files: options.files,
      fetchImpl,
      folder: () => options.sourceFolder?.(),
      indexUrl: () => options.indexUrl?.(),
    }),
    skillInstallTool({ catalog, registry: options.registry, files: options.files, fetchImpl }),
    skillCreateTool({ catalog, registry: options.registry }),
    skillListTool(catalog),
    skillUninstallTool(catalog),
  ] as Tool[];
  return {
    tools,
    catalog,
    content: skillMcpContent(catalog),
    async start() {
      await installer.sweepStaging();
      const { problems } = catalog.load();
      if (options.seedBundled ?? true) {
        const seeded = await seedBundledSkills({ catalog, store: options.store, registry: options.registry, now });
        problems.push(...seeded.failed);
      }
      return { problems };
    },
  };
}

export { BUNDLED_SKILLS } from './bundled-skills';
export { parseSkillMd, type SkillFrontMatter } from './front-matter';
export { SKILL_LIMITS } from './limits';
export type { InstalledSkill, SkillCatalog, SkillToolView } from './skill-catalog';
export { promptText, SKILL_URI_SCHEME, type SkillMcpContent } from './skill-mcp-content';
export { isSkillName, skillNameProblem, skillToolId } from './skill-name';
export { InMemorySkillStore, type SkillOrigin, type SkillRecord, type SkillStore } from './skill-store';
export { NO_SANDBOX, type SkillScriptRequest, type SkillScriptRunner } from './skill-tool-compiler';
