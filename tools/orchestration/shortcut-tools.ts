/**
 * The model's entry points to shortcuts (docs/architecture.md#shortcuts): shortcut_define (define
 * and hot-register as a first-class tool), shortcut_list (definitions plus suggestions mined from
 * the traces), shortcut_run (run one by id, for agents whose tool list was fetched before it was
 * defined).
 */
import { z } from 'zod';
import type { ToolRegistry } from '../core/registry';
import { failure, jsonSuccess } from '../core/result';
import { suggestToolIds } from '../core/suggester';
import { type Tool, defineTool } from '../core/tool';
import type { TraceSpan } from '../core/trace-span';
import { type CallObserver, invokeObserved } from '../core/call-observer';
import {
  SHORTCUT_PREFIX,
  type ShortcutDefinition,
  shortcutDefinitionShape,
  shortcutPreconditionSchema,
} from './shortcut-definition';
import type { PreconditionKey } from './shortcut-preconditions';
import { type ShortcutStore, defineShortcut } from './shortcut-store';
import { MIN_COUNT, type SuggestOptions, suggestShortcuts } from './shortcut-suggester';
import { type TelemetryReader, shortcutProfile } from './shortcut-tool';

export interface ShortcutToolDeps {
  registry: ToolRegistry;
  shortcutStore: ShortcutStore;
  traceSpans?: () => readonly TraceSpan[];
  telemetry?: TelemetryReader;
  observer?: CallObserver;
  sameArgument?: SuggestOptions['sameArgument'];
  /** The telemetry keys the host has, listed in shortcut_define's schema and checked there. */
  preconditionKeys?: readonly PreconditionKey[];
}

/** shortcut_define's input: the definition, its precondition keys listed from what the host has. */
function defineInput(keys: readonly PreconditionKey[] | undefined) {
  if (!keys?.length) return z.object(shortcutDefinitionShape);
  const list = keys.map((k) => `"${k.key}" (${k.meaning})`).join('; ');
  const precondition = shortcutPreconditionSchema.extend({
    key: z
      .string()
      .min(1)
      .describe(
        `Telemetry key the host has: ${list}. Write <serial> as a literal serial, or as {param} to check the device a parameter names (e.g. "device.{serial}.online").`,
      ),
  });
  return z.object({
    ...shortcutDefinitionShape,
    preconditions: z
      .array(precondition)
      .optional()
      .describe(
        'Environment expectations checked before the first step; an unknown or stale value lets the run go ahead.',
      ),
  });
}

function summary(def: ShortcutDefinition, registry: ToolRegistry) {
  const profile = shortcutProfile(def, registry);
  return { ...def, risk: profile.risk, annotations: profile.annotations, registered: registry.has(def.id) };
}

export function shortcutDefineTool(deps: ShortcutToolDeps) {
  return defineTool({
    id: 'shortcut_define',
    title: 'Define a shortcut',
    description:
      'Defines a reusable shortcut: a named sequence of tool calls with declared parameters, callable at once as the tool ' +
      '"shortcut.<name>". In step args, "{param}" inserts a parameter, "{n}" the result of step n (0-based) and "{n.path}" one field of it ("{0.data.id}"). ' +
      'Redefining an id replaces it. Every parameter must be used; at most 16 steps. Preconditions compare a telemetry key ' +
      '(see preconditions[].key) with a value before the first step; an unknown or stale value lets the run go ahead.',
    input: defineInput(deps.preconditionKeys),
    metadata: { category: 'orchestration', risk: 'MEDIUM' },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    run(args) {
      const defined = defineShortcut(args, {
        store: deps.shortcutStore,
        registry: deps.registry,
        telemetry: deps.telemetry,
        observer: deps.observer,
        ...(deps.preconditionKeys ? { preconditionKeys: deps.preconditionKeys } : {}),
      });
      if (!defined.ok) return defined.result;
      const { definition, tool, replaced } = defined.value;
      return jsonSuccess({
        defined: definition.id,
        replaced,
        risk: tool.metadata.risk,
        annotations: tool.metadata.annotations,
        message: `${replaced ? 'Replaced' : 'Defined'} ${definition.id}; call it as the tool '${definition.id}' or through shortcut_run.`,
      });
    },
  });
}

export function shortcutListTool(deps: ShortcutToolDeps) {
  return defineTool({
    id: 'shortcut_list',
    title: 'List shortcuts',
    description:
      'Lists the defined shortcuts (parameters, steps, risk) and suggests new ones: sequences of 2 to 16 tools an agent called in the same order, all successfully, several times (with how often, when last and how often that order succeeded).',
    input: z.object({
      includeSuggestions: z
        .boolean()
        .default(true)
        .describe('Also mine the recent traces for shortcut suggestions (default true).'),
      minCount: z
        .number()
        .int()
        .min(2)
        .max(1000)
        .default(MIN_COUNT)
        .describe('How often a sequence must have recurred to be suggested (default 3).'),
    }),
    metadata: { category: 'orchestration', risk: 'LOW' },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    run(args) {
      const defs = deps.shortcutStore.list().sort((a, b) => a.id.localeCompare(b.id));
      const spans = args.includeSuggestions ? (deps.traceSpans?.() ?? []) : [];
      const suggestions = args.includeSuggestions
        ? suggestShortcuts(spans, {
            defined: defs,
            minCount: args.minCount,
            limit: 10,
            ...(deps.sameArgument ? { sameArgument: deps.sameArgument } : {}),
          })
        : [];
      return jsonSuccess({ shortcuts: defs.map((d) => summary(d, deps.registry)), suggestions });
    },
  });
}

export function shortcutRunTool(deps: ShortcutToolDeps) {
  return defineTool({
    id: 'shortcut_run',
    title: 'Run a shortcut',
    description:
      'Runs a defined shortcut by id with its parameters. Equivalent to calling the tool "shortcut.<name>" directly.',
    input: z.object({
      id: z.string().min(1).describe('The shortcut id, e.g. "shortcut.open_wifi_settings".'),
      params: z.record(z.string(), z.unknown()).optional().describe("Values for the shortcut's declared parameters."),
    }),
    metadata: { category: 'orchestration', risk: 'MEDIUM' },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: false,
    },
    // Delegates to the shortcut tool, which is gated with its own risk, and its steps with theirs.
    selfGated: true,
    runPolicy: 'selfBounded',
    async run(args, ctx) {
      if (!args.id.startsWith(SHORTCUT_PREFIX)) {
        return failure(
          'INVALID_ARGUMENT',
          `'${args.id}' is not a shortcut id; shortcut ids start with "${SHORTCUT_PREFIX}".`,
          {
            hint: 'Call other tools directly, or list shortcuts with shortcut_list.',
            data: { fields: ['id'] },
          },
        );
      }
      const tool: Tool | undefined = deps.registry.get(args.id);
      if (!tool) {
        const known = deps.shortcutStore.list().map((d) => d.id);
        const stored = known.includes(args.id);
        const suggestions = suggestToolIds(args.id, known);
        return failure(
          'NOT_FOUND',
          stored
            ? `Shortcut '${args.id}' is stored but not loaded: one of its steps' tools is missing.`
            : `No shortcut '${args.id}'.${suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : ''}`,
          {
            hint: stored
              ? 'Redefine it with shortcut_define using tools that exist.'
              : 'List the shortcuts with shortcut_list, or define it with shortcut_define.',
            data: { suggestions },
          },
        );
      }
      return invokeObserved(
        ctx,
        {
          toolId: args.id,
          args: args.params ?? {},
          sessionId: ctx.sessionId,
          requester: { kind: 'shortcut', id: ctx.callId, label: 'shortcut_run' },
          signal: ctx.signal,
          onProgress: (update) => ctx.progress(update),
        },
        deps.observer,
      );
    },
  });
}
