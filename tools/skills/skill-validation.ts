/**
 * From a bundle of files to a skill that may be installed, or every reason it may not: where
 * SKILL.md is (at the root, or in the one folder an archive holds), that it is UTF-8 and within
 * its size, its front matter, the name against the folder it came in, and its declared tools.
 */
import type { ToolRegistry } from '../core/registry';
import type { FieldIssue } from '../orchestration';
import { type SkillFrontMatter, parseSkillMd } from './front-matter';
import { SKILL_LIMITS, SKILL_MD } from './limits';
import type { SkillFile } from './skill-bundle';
import { toolDeclarationIssues } from './skill-tool-declaration';

export interface ValidatedSkill {
  name: string;
  frontMatter: SkillFrontMatter;
  /** The instructions (SKILL.md after the front matter). */
  body: string;
  /** SKILL.md as written. */
  skillMd: string;
  /** Relative to the skill's own folder. */
  files: SkillFile[];
}

export type SkillValidation = { ok: true; skill: ValidatedSkill } | { ok: false; issues: FieldIssue[] };

/** The skill's files relative to its own folder, and that folder's name when it came in one. */
function skillRoot(files: readonly SkillFile[]): { files: SkillFile[]; folder?: string } | undefined {
  if (files.some((f) => f.path === SKILL_MD)) return { files: [...files] };
  const tops = new Set(files.map((f) => f.path.split('/')[0]));
  const [only] = tops;
  if (tops.size !== 1 || only === undefined || !files.some((f) => f.path === `${only}/${SKILL_MD}`)) return undefined;
  const prefix = `${only}/`;
  return { files: files.map((f) => ({ path: f.path.slice(prefix.length), data: f.data })), folder: only };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Just SKILL.md's text, for listing what an archive offers without validating all of it. */
export function skillMdOf(files: readonly SkillFile[]): { skillMd: string } | undefined {
  const file = skillRoot(files)?.files.find((f) => f.path === SKILL_MD);
  if (!file || file.data.length > SKILL_LIMITS.skillMdBytes) return undefined;
  try {
    return { skillMd: UTF8.decode(file.data) };
  } catch {
    return undefined;
  }
}

export function validateSkill(
  files: readonly SkillFile[],
  options: { registry: ToolRegistry; folderName?: string },
): SkillValidation {
  const root = skillRoot(files);
  if (!root) {
    return fail(SKILL_MD, 'no SKILL.md at the root of the skill, nor in the single folder the archive holds');
  }
  const skillMdFile = root.files.find((f) => f.path === SKILL_MD);
  if (!skillMdFile) return fail(SKILL_MD, 'SKILL.md is missing');
  if (skillMdFile.data.length > SKILL_LIMITS.skillMdBytes) {
    return fail(SKILL_MD, `is ${skillMdFile.data.length} bytes; at most ${SKILL_LIMITS.skillMdBytes}`);
  }
  let skillMd: string;
  try {
    skillMd = UTF8.decode(skillMdFile.data);
  } catch {
    return fail(SKILL_MD, 'is not valid UTF-8 text');
  }
  const parsed = parseSkillMd(skillMd);
  const paths = new Set(root.files.map((f) => f.path));
  if (!parsed.ok) {
    const toolIssues = parsed.tools ? toolDeclarationIssues(parsed.tools, paths, options.registry) : [];
    return { ok: false, issues: [...parsed.issues, ...toolIssues] };
  }
  const { frontMatter, body } = parsed.value;
  const issues: FieldIssue[] = [];
  const folder = root.folder ?? options.folderName;
  if (folder !== undefined && folder !== frontMatter.name) {
    issues.push({
      field: 'name',
      message: `'${frontMatter.name}' must match the folder the skill is in ('${folder}'); rename one of them`,
    });
  }
  issues.push(...toolDeclarationIssues(frontMatter.tools ?? [], paths, options.registry));
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, skill: { name: frontMatter.name, frontMatter, body, skillMd, files: root.files } };
}

function fail(field: string, message: string): SkillValidation {
  return { ok: false, issues: [{ field, message }] };
}
