/**
 * The Agent Skills name rules: 1 to 64 characters, lowercase letters, digits and hyphens, no
 * hyphen at either end and never two in a row. The installed folder is named after the skill, so
 * the rule also keeps every skill folder a plain, portable file name.
 */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_NAME_CHARS = 64;

/** Why `name` is not a valid skill name, or undefined when it is. */
export function skillNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > MAX_NAME_CHARS) return `is ${name.length} characters long; at most ${MAX_NAME_CHARS} are allowed`;
  if (NAME.test(name)) return undefined;
  if (/[A-Z]/.test(name)) return 'has uppercase letters; use lowercase letters, digits and hyphens only';
  if (name.startsWith('-') || name.endsWith('-')) return 'starts or ends with a hyphen';
  if (name.includes('--')) return 'has two hyphens in a row';
  return 'may hold only lowercase letters, digits and hyphens (e.g. "android-smoke-test")';
}

export function isSkillName(name: string): boolean {
  return skillNameProblem(name) === undefined;
}

/** The registry id of a tool a skill declares: `skill.<skill>.<tool>` (published as `skill_<skill>_<tool>`). */
export function skillToolId(skill: string, tool: string): string {
  return `skill.${skill}.${tool}`;
}

export const SKILL_TOOL_PREFIX = 'skill.';
