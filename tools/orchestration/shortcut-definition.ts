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
import { ARGUMENTS } from '../core/fields';

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
  name: z.string().min(1),
  type: z.enum(['string', 'number', 'boolean']),
  description: z.string().min(1),
  required: z.boolean().optional(),
  default: scalar.optional(),
});

export const shortcutPreconditionSchema = z.object({
  key: z.string().min(1).describe('A telemetry key, e.g. "device.{serial}.online" ({serial} a parameter).'),
  equals: scalar,
  hint: z.string().optional(),
});

export const shortcutStepSchema = z.object({
  tool: z.string().min(1),
  args: ARGUMENTS.optional(),
});

export const shortcutDefinitionShape = {
  id: z.string().min(1).describe('e.g. "shortcut.open_wifi".'),
  description: z.string().min(1),
  preconditions: z.array(shortcutPreconditionSchema).optional(),
  params: z.array(shortcutParamSchema).default([]),
  steps: z.array(shortcutStepSchema),
};

export const shortcutDefinitionSchema = z.object(shortcutDefinitionShape);

export function isRequired(param: ShortcutParam): boolean {
  return param.default === undefined && param.required !== false;
}
