/**
 * ShortcutDefinition (docs/architecture.md#shortcuts, after Mobile-Agent-E's shortcuts): a named,
 * parameterised sequence of tool calls that becomes a first-class tool `shortcut.xxx`.
 *
 * Preconditions are deliberately simple: `{ key, equals }` is compared with the fresh value the
 * host's telemetry has for `key` (e.g. `device.{serial}.online` → true,
 * `device.{serial}.foregroundPackage` → "com.android.settings", `browser.dialogOpen` → false;
 * shortcut-preconditions.ts). A missing value (unknown or stale) lets the run through, as the
 * environment gate does (fail-open); a known different value refuses the run.
 */
import { z } from 'zod';
import { MAX_STEPS } from './step-runner';

export type ShortcutParamType = 'string' | 'number' | 'boolean';

export interface ShortcutParam {
  name: string;
  type: ShortcutParamType;
  description: string;
  /** Defaults to true when no default is given. */
  required?: boolean;
  default?: string | number | boolean;
}

export interface ShortcutPrecondition {
  /** A telemetry key the host has, e.g. `device.{serial}.online`, `browser.pageOpen`; `{param}` is a parameter. */
  key: string;
  equals: string | number | boolean;
  /** What to tell the model when the environment is not as expected. */
  hint?: string;
}

export interface ShortcutStep {
  tool: string;
  /** Argument template: `{param}` and `{n}` placeholders in values. */
  args?: Record<string, unknown>;
}

export interface ShortcutDefinition {
  id: string;
  description: string;
  preconditions?: ShortcutPrecondition[];
  params: ShortcutParam[];
  steps: ShortcutStep[];
}

export const SHORTCUT_PREFIX = 'shortcut.';

const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const shortcutParamSchema = z.object({
  name: z.string().min(1).describe('Parameter name, used as {name} in step arguments (letters, digits, _).'),
  type: z.enum(['string', 'number', 'boolean']).describe('Type of the value the caller passes.'),
  description: z.string().min(1).describe('What the parameter means, shown to whoever calls the shortcut.'),
  required: z
    .boolean()
    .optional()
    .describe('Whether the caller must pass it (default: true unless a default is given).'),
  default: scalar.optional().describe('Value used when the caller omits it; must match the type.'),
});

export const shortcutPreconditionSchema = z.object({
  key: z
    .string()
    .min(1)
    .describe(
      'Environment telemetry key, e.g. "device.{serial}.online" (with the serial a parameter gives) or "browser.dialogOpen".',
    ),
  equals: scalar.describe('Value the key must have; when the value is unknown the run goes ahead.'),
  hint: z.string().optional().describe('How to fix the environment when it does not match, shown to the model.'),
});

export const shortcutStepSchema = z.object({
  tool: z.string().min(1).describe('Id of the tool this step calls.'),
  args: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'Argument template: "{param}" inserts a parameter (typed when it is the whole value), "{n}" the result of step n (0-based), "{n.path}" one field of it, e.g. "{0.data.items[2].id}".',
    ),
});

export const shortcutDefinitionShape = {
  id: z.string().min(1).describe('Tool id in the shortcut namespace, e.g. "shortcut.open_wifi_settings".'),
  description: z.string().min(1).describe('What the shortcut does, written for a model choosing tools.'),
  preconditions: z
    .array(shortcutPreconditionSchema)
    .optional()
    .describe('Environment expectations checked before the first step.'),
  params: z
    .array(shortcutParamSchema)
    .default([])
    .describe('Declared parameters; every one must be used by some step.'),
  steps: z.array(shortcutStepSchema).describe(`The calls, in order (1 to ${MAX_STEPS}).`),
};

export const shortcutDefinitionSchema = z.object(shortcutDefinitionShape);

export function isRequired(param: ShortcutParam): boolean {
  return param.default === undefined && param.required !== false;
}
