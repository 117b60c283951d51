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
import { SHORTCUT_PREFIX, type ShortcutDefinition, shortcutDefinitionShape } from './shortcut-definition';
import { type ShortcutStore, defineShortcut } from './shortcut-store';
import { MIN_PAIR_COUNT, suggestShortcuts } from './shortcut-suggester';
import { type TelemetryReader, shortcutProfile } from './shortcut-tool';

export interface ShortcutToolDeps {
  registry: ToolRegistry;
  shortcutStore: ShortcutStore;
  traceSpans?: () => readonly TraceSpan[];
  telemetry?: TelemetryReader;
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
      '"shortcut.<name>". In step args, "{param}" inserts a parameter and "{n}" the result of step n (0-based). ' +
      'Redefining an id replaces it. Every parameter must be used; at most 16 steps.',
    input: z.object(shortcutDefinitionShape),
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
      'Lists the defined shortcuts (parameters, steps, risk) and suggests new ones from tool pairs that were called one after the other successfully several times.',
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
        .default(MIN_PAIR_COUNT)
        .describe('How often a pair must have been seen to be suggested (default 3).'),
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
        ? suggestShortcuts(spans, { defined: defs, minCount: args.minCount, limit: 10 })
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
      return ctx.invoke({
        toolId: args.id,
        args: args.params ?? {},
        sessionId: ctx.sessionId,
        requester: { kind: 'shortcut', id: ctx.callId, label: 'shortcut_run' },
        signal: ctx.signal,
        onProgress: (update) => ctx.progress(update),
      });
    },
  });
}
