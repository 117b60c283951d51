/**
 * The contract methods for the skills and GitHub families: the Skills page's list and switches,
 * and the Settings page's GitHub token (write-only: the status says whether one is set, never
 * what it is). Installing and removing a skill are tool calls (skill_install, skill_uninstall),
 * so they wait for approval like an agent's.
 */
import type { GithubStatus, SkillView } from '../../shared/contract';
import { publishedName } from '../core/published-name';
import type { GithubConnector } from '../github';
import type { InstalledSkill, SkillsFamily } from '../skills';
import type { HostApiHandlers } from './http/rpc-dispatch';

function skillView(s: InstalledSkill): SkillView {
  return {
    name: s.name,
    description: s.description,
    ...(s.license ? { license: s.license } : {}),
    state: s.problem ? 'broken' : s.enabled ? 'enabled' : 'disabled',
    ...(s.problem ? { problem: s.problem } : {}),
    origin: s.origin,
    source: s.source,
    installedAt: s.installedAt,
    files: s.files,
    bytes: s.bytes,
    tools: s.tools.map((t) => ({
      id: t.id,
      callAs: publishedName(t.id),
      kind: t.kind,
      description: t.description,
      ...(t.risk ? { risk: t.risk } : {}),
      state: t.state,
      ...(t.reason ? { reason: t.reason } : {}),
    })),
    skillMd: s.skillMd,
  };
}

export function catalogApi(
  skills: SkillsFamily,
  github: GithubConnector,
): Pick<HostApiHandlers, 'skills' | 'setSkillEnabled' | 'githubStatus' | 'setGithubToken'> {
  return {
    skills: () => skills.catalog.list().map(skillView),
    setSkillEnabled: async ({ name, enabled }) => {
      if (!skills.catalog.has(name)) return { ok: false, message: `No skill named '${name}' is installed.` };
      await skills.catalog.setEnabled(name, enabled);
      return { ok: true, message: `${name} ${enabled ? 'enabled' : 'disabled'}.` };
    },
    githubStatus: (): GithubStatus => github.status(),
    setGithubToken: ({ token }): GithubStatus => (token === null ? github.clearToken() : github.setToken(token)),
  };
}
