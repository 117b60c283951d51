/**
 * Full validation of a shortcut at definition time (docs/architecture.md#shortcuts): every problem
 * is reported at once, each naming its field, so a model can fix the whole definition in one retry.
 * Checked: the shape, the `shortcut.` namespace, parameter names/defaults, the step count, unknown
 * tools, undeclared `{param}` placeholders, dead (declared but unused) parameters, and `{n}`
 * references that point forward or out of range.
 */
import type { ToolRegistry } from '../core/registry';
import { type ToolFailure, failure } from '../core/result';
import { formatPath } from '../core/schema';
import { SHORTCUT_PREFIX, type ShortcutDefinition, shortcutDefinitionSchema } from './shortcut-definition';
import { type FieldIssue, MAX_STEPS, stepReferenceIssues } from './step-runner';
import { findPlaceholders } from './template';
import { type PreconditionKey, keyParams, preconditionKeyIssues } from './shortcut-preconditions';

const ID_PATTERN = /^shortcut\.[a-z][a-z0-9_]{0,62}$/;
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Tools that skills bring (`skill.<skill>.<tool>`): step templates like shortcuts, or sandboxed scripts. */
const SKILL_TOOL_PREFIX = 'skill.';

/**
 * Tools a shortcut may not call: the composite ones. Keeping shortcuts one level deep rules out
 * cycles (a shortcut calling itself) and keeps a shortcut's risk fixed when another is redefined.
 * A skill's tools count as composite too: they are shortcuts of their own or sandboxed scripts.
 */
export function isCompositeTool(toolId: string): boolean {
  return (
    toolId === 'tool_batch_run' ||
    toolId === 'shortcut_run' ||
    toolId === 'shortcut_define' ||
    toolId.startsWith(SHORTCUT_PREFIX) ||
    toolId.startsWith(SKILL_TOOL_PREFIX)
  );
}

export type ShortcutValidation = { ok: true; definition: ShortcutDefinition } | { ok: false; issues: FieldIssue[] };

export interface ValidateOptions {
  /** The telemetry keys the host has: a precondition naming another key is refused (at definition time). */
  preconditionKeys?: readonly PreconditionKey[];
}

export function validateShortcut(
  raw: unknown,
  registry: ToolRegistry,
  options: ValidateOptions = {},
): ShortcutValidation {
  const parsed = shortcutDefinitionSchema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, issues: parsed.error.issues.map((i) => ({ field: formatPath(i.path), message: i.message })) };
  }
  const def: ShortcutDefinition = parsed.data;
  const issues: FieldIssue[] = [];

  if (!ID_PATTERN.test(def.id)) {
    issues.push({
      field: 'id',
      message:
        `'${def.id}' must be in the shortcut namespace: "shortcut." then lowercase letters, digits and _, ` +
        'e.g. "shortcut.open_wifi_settings"',
    });
  }

  const declared = new Map<string, number>();
  for (const [i, p] of def.params.entries()) {
    if (!PARAM_NAME.test(p.name))
      issues.push({
        field: `params[${i}].name`,
        message: `'${p.name}' must start with a letter or _ and hold only letters, digits and _`,
      });
    else if (declared.has(p.name))
      issues.push({ field: `params[${i}].name`, message: `'${p.name}' is declared twice` });
    else declared.set(p.name, i);
    if (p.default !== undefined && typeof p.default !== p.type) {
      issues.push({
        field: `params[${i}].default`,
        message: `default ${JSON.stringify(p.default)} is not a ${p.type}`,
      });
    }
  }

  if (def.steps.length === 0) issues.push({ field: 'steps', message: 'give at least one step' });
  if (def.steps.length > MAX_STEPS)
    issues.push({ field: 'steps', message: `at most ${MAX_STEPS} steps per shortcut, got ${def.steps.length}` });

  const used = new Set<string>();
  for (const [i, step] of def.steps.entries()) {
    issues.push(...toolIssues(step.tool, `steps[${i}].tool`, registry));
    const placeholders = findPlaceholders(step.args ?? {}, `steps[${i}].args`);
    issues.push(...stepReferenceIssues(i, placeholders, def.steps.length));
    for (const p of placeholders) {
      if (p.kind !== 'param' || typeof p.ref !== 'string') continue;
      if (declared.has(p.ref)) used.add(p.ref);
      else
        issues.push({
          field: p.path,
          message: `{${p.ref}} is not a declared parameter${declaredList(declared)}; declare it in params or remove it`,
        });
    }
  }

  for (const [i, pre] of (def.preconditions ?? []).entries()) {
    for (const name of keyParams(pre.key)) {
      if (declared.has(name)) used.add(name);
      else
        issues.push({
          field: `preconditions[${i}].key`,
          message: `{${name}} is not a declared parameter${declaredList(declared)}; declare it in params or remove it`,
        });
    }
  }
  if (options.preconditionKeys) issues.push(...preconditionKeyIssues(def, options.preconditionKeys));

  for (const [name, i] of declared) {
    if (!used.has(name))
      issues.push({
        field: `params[${i}].name`,
        message: `parameter '${name}' is declared but no step uses it; use {${name}} in a step or remove it`,
      });
  }

  return issues.length > 0 ? { ok: false, issues } : { ok: true, definition: def };
}

function toolIssues(toolId: string, field: string, registry: ToolRegistry): FieldIssue[] {
  if (isCompositeTool(toolId)) {
    return [{ field, message: `a shortcut cannot call '${toolId}'; list the underlying tool calls as steps instead` }];
  }
  const lookup = registry.lookup(toolId);
  // A published name (shortcut_x for shortcut.x) resolves to the composite tool it names.
  if (lookup.found && isCompositeTool(lookup.tool.id)) {
    return [
      { field, message: `a shortcut cannot call '${lookup.tool.id}'; list the underlying tool calls as steps instead` },
    ];
  }
  if (lookup.found) return [];
  const tail = lookup.suggestions.length > 0 ? `; did you mean ${lookup.suggestions.join(', ')}?` : '';
  return [{ field, message: `unknown tool '${toolId}'${tail}` }];
}

function declaredList(declared: ReadonlyMap<string, number>): string {
  return declared.size > 0 ? ` (declared: ${[...declared.keys()].join(', ')})` : ' (none are declared)';
}

export function shortcutIssuesResult(issues: readonly FieldIssue[]): ToolFailure {
  return failure(
    'INVALID_ARGUMENT',
    `Invalid shortcut definition: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}.`,
    {
      hint: 'Fix every listed field and define the shortcut again.',
      data: { fields: issues.map((i) => i.field), issues },
    },
  );
}
