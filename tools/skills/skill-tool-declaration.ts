/**
 * The tools a skill declares in its front matter (`tools:`), each one of two kinds:
 *
 * - **steps**: a template over tools that exist, exactly like a shortcut (parameters, `{param}` and
 *   `{n}` placeholders, preconditions), validated by the orchestration family's own shortcut check,
 *   so a skill tool can do nothing a shortcut could not, and its risk is its worst step's;
 * - **script**: a file of the skill's `scripts/` folder, run only in the terminal sandbox, never on
 *   the host.
 *
 * ```yaml
 * tools:
 *   - name: launch_and_check
 *     description: Launches an app and dumps its first screen.
 *     params: [{ name: package, type: string, description: Android package name }]
 *     steps:
 *       - { tool: app_launch, args: { package: "{package}" } }
 *       - { tool: ui_dump }
 * ```
 */
import { z } from 'zod';
import type { ToolRegistry } from '../core/registry';
import {
  type FieldIssue,
  MAX_STEPS,
  type ShortcutParam,
  type ShortcutPrecondition,
  type ShortcutStep,
  shortcutParamSchema,
  shortcutPreconditionSchema,
  shortcutStepSchema,
  validateShortcut,
} from '../orchestration';
import { SKILL_LIMITS } from './limits';

export const TOOL_NAME = /^[a-z][a-z0-9_]{0,31}$/;

export interface SkillToolDeclaration {
  name: string;
  description: string;
  params: ShortcutParam[];
  preconditions?: ShortcutPrecondition[];
  steps?: ShortcutStep[];
  /** A path inside the skill, under scripts/. */
  script?: string;
  /** Longest a script may run (default 60 s). */
  timeoutSeconds?: number;
}

export const skillToolDeclarationSchema = z.object({
  name: z
    .string()
    .regex(TOOL_NAME, 'must be lowercase letters, digits and _, starting with a letter, at most 32 characters')
    .describe('The tool name inside the skill; the tool is registered as skill.<skill>.<name>.'),
  description: z.string().trim().min(1).max(1024).describe('What the tool does, written for a model choosing tools.'),
  params: z
    .array(shortcutParamSchema)
    .max(16)
    .default([])
    .describe('Declared parameters; every one must be used by a step (for a script, each is passed as an argument).'),
  preconditions: z
    .array(shortcutPreconditionSchema)
    .max(8)
    .optional()
    .describe('Environment expectations checked before the first step (steps tools only).'),
  steps: z
    .array(shortcutStepSchema)
    .max(MAX_STEPS)
    .optional()
    .describe(`Step templates over existing tools, run in order (1 to ${MAX_STEPS}); give steps or script.`),
  script: z
    .string()
    .max(SKILL_LIMITS.pathChars)
    .optional()
    .describe('A file of the skill under scripts/, run in the terminal sandbox; give steps or script.'),
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(600)
    .optional()
    .describe('Longest the script may run, in seconds (default 60, at most 600).'),
});

/**
 * Checks declared tools against the registry and the skill's files: names unique, exactly one of
 * steps or script, step templates valid as shortcuts, scripts present under scripts/. Fields are
 * named from the front matter's root (`tools[1].steps[0].tool`).
 */
export function toolDeclarationIssues(
  tools: readonly SkillToolDeclaration[],
  /** The skill's files, to check scripts exist; undefined when loading an installed skill. */
  files: ReadonlySet<string> | undefined,
  registry: ToolRegistry,
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (tools.length > SKILL_LIMITS.tools)
    issues.push({ field: 'tools', message: `at most ${SKILL_LIMITS.tools} tools per skill, got ${tools.length}` });
  const seen = new Set<string>();
  for (const [i, tool] of tools.entries()) {
    const at = `tools[${i}]`;
    if (seen.has(tool.name)) issues.push({ field: `${at}.name`, message: `'${tool.name}' is declared twice` });
    seen.add(tool.name);
    const hasSteps = tool.steps !== undefined;
    const hasScript = tool.script !== undefined;
    if (hasSteps === hasScript) {
      issues.push({ field: at, message: 'give exactly one of "steps" (a template over tools) or "script"' });
      continue;
    }
    if (hasScript) issues.push(...scriptIssues(tool, at, files));
    else issues.push(...stepIssues(tool, at, registry));
  }
  return issues;
}

function stepIssues(tool: SkillToolDeclaration, at: string, registry: ToolRegistry): FieldIssue[] {
  const checked = validateShortcut(
    {
      id: `shortcut.${tool.name}`,
      description: tool.description,
      params: tool.params,
      ...(tool.preconditions ? { preconditions: tool.preconditions } : {}),
      steps: tool.steps,
    },
    registry,
  );
  if (checked.ok) return [];
  return checked.issues
    .filter((issue) => issue.field !== 'id')
    .map((issue) => ({
      field: `${at}.${issue.field}`,
      message: issue.message.replace(/a shortcut cannot/, 'a skill tool cannot'),
    }));
}

function scriptIssues(tool: SkillToolDeclaration, at: string, files: ReadonlySet<string> | undefined): FieldIssue[] {
  const script = tool.script ?? '';
  if (!script.startsWith('scripts/') || script.split('/').some((part) => part === '..' || part === '')) {
    return [{ field: `${at}.script`, message: `'${script}' must be a file under scripts/, e.g. "scripts/run.sh"` }];
  }
  if (files && !files.has(script))
    return [{ field: `${at}.script`, message: `'${script}' is not a file of this skill` }];
  return [];
}
