/**
 * Compiles a validated ShortcutDefinition into a first-class tool `shortcut.xxx`
 * (docs/architecture.md#shortcuts). Its input schema is built from the declared parameters; its
 * risk is the worst risk of its steps (a shortcut containing app_uninstall is HIGH) and its hints
 * are derived from theirs, so catalogs, MCP clients and the UI see what it can really do. Running
 * it checks the preconditions, then runs the steps like a batch, each through `ctx.invoke`.
 */
import { z } from 'zod';
import type { ToolAnnotations } from '../core/annotations';
import { type RiskLevel, riskRank } from '../core/metadata';
import type { ToolRegistry } from '../core/registry';
import { type Tool, type ToolContext, defineTool } from '../core/tool';
import type { CallObserver } from '../core/call-observer';
import { type ShortcutDefinition, type ShortcutParam, isRequired } from './shortcut-definition';
import { type TelemetryReader, preconditionFailure } from './shortcut-preconditions';
import { DEFAULT_BUDGET_MS, runSteps, stepsResult } from './step-runner';
import type { ParamValue } from './template';

export type { TelemetryReader } from './shortcut-preconditions';

export interface ShortcutCompileOptions {
  telemetry?: TelemetryReader;
  /** What the tool is called in its messages (default "shortcut"; a skill's tool says "skill tool"). */
  kind?: string;
  /** Sees each step's call as it starts and ends (the host keeps their arguments in memory). */
  observer?: CallObserver;
}

export interface ShortcutProfile {
  risk: RiskLevel;
  annotations: ToolAnnotations;
}

/** Risk and hints of a shortcut from its steps' tools; a step tool that is missing counts as the worst case. */
export function shortcutProfile(def: ShortcutDefinition, registry: ToolRegistry): ShortcutProfile {
  const tools = def.steps.map((s) => registry.get(s.tool));
  let risk: RiskLevel = 'LOW';
  for (const t of tools) {
    const r = t?.metadata.risk ?? 'HIGH';
    if (riskRank(r) > riskRank(risk)) risk = r;
  }
  const hints = tools.map((t) => t?.metadata.annotations);
  const all = (k: keyof ToolAnnotations) => hints.every((h) => h?.[k] === true);
  const any = (k: keyof ToolAnnotations) => hints.some((h) => h === undefined || h[k]);
  return {
    risk,
    annotations: {
      readOnlyHint: all('readOnlyHint'),
      destructiveHint: any('destructiveHint'),
      idempotentHint: all('idempotentHint'),
      openWorldHint: any('openWorldHint'),
      sensitiveAction: any('sensitiveAction') || risk === 'HIGH',
    },
  };
}

function paramSchema(p: ShortcutParam): z.ZodType {
  const described = (s: z.ZodType) => s.describe(p.description);
  if (p.default !== undefined) {
    if (p.type === 'string' && typeof p.default === 'string') return described(z.string().default(p.default));
    if (p.type === 'number' && typeof p.default === 'number') return described(z.number().default(p.default));
    if (p.type === 'boolean' && typeof p.default === 'boolean') return described(z.boolean().default(p.default));
  }
  const base = p.type === 'string' ? z.string() : p.type === 'number' ? z.number() : z.boolean();
  return described(isRequired(p) ? base : base.optional());
}

/** The input object of a tool whose arguments are these declared parameters (a shortcut's, a skill tool's). */
export function paramsInput(params: readonly ShortcutParam[]): z.ZodObject<Record<string, z.ZodType>> {
  const shape: Record<string, z.ZodType> = {};
  for (const p of params) shape[p.name] = paramSchema(p);
  return z.object(shape);
}

export function compileShortcut(
  def: ShortcutDefinition,
  registry: ToolRegistry,
  options: ShortcutCompileOptions = {},
): Tool {
  const profile = shortcutProfile(def, registry);
  const chain = def.steps.map((s) => s.tool).join(' → ');
  return defineTool({
    id: def.id,
    description: `${def.description} (shortcut: ${chain})`,
    input: paramsInput(def.params),
    metadata: { category: 'orchestration', risk: profile.risk, tags: ['orchestration', 'shortcut', 'host'] },
    annotations: profile.annotations,
    // Every step is approved on its own, with its exact arguments, through ctx.invoke; a prompt
    // for the shortcut as well would ask the person twice. The risk above is still published.
    selfGated: true,
    // Runs under its own wall budget like a batch; a per-preset timeout would cut it short.
    runPolicy: 'selfBounded',
    async run(args: Record<string, unknown>, ctx: ToolContext) {
      const params = new Map<string, ParamValue | undefined>();
      for (const p of def.params) params.set(p.name, args[p.name] as ParamValue | undefined);
      const refused = preconditionFailure(def, options.telemetry, params);
      if (refused) return refused;
      const report = await runSteps(def.steps, ctx, {
        budgetMs: DEFAULT_BUDGET_MS,
        requester: { kind: 'shortcut', id: ctx.callId, label: def.id },
        params,
        ...(options.observer ? { observer: options.observer } : {}),
      });
      return stepsResult(report, `${options.kind ?? 'shortcut'} ${def.id}`);
    },
  });
}
