/**
 * The model's entry points to shortcuts (docs/architecture.md#shortcuts): shortcut_define (define
 * and hot-register as a first-class tool), shortcut_list (definitions plus suggestions mined from
 * the traces), shortcut_run (run one by id, for agents whose tool list was fetched before it was
 * defined).
 */
import { z } from 'zod';
import { ARGUMENTS } from '../core/fields';
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

/**
 * shortcut_define's input: the definition, its precondition keys listed from what the host has, as
 * the key's examples (data a model reads, not prose; a key of another name is refused with the list).
 */
function defineInput(keys: readonly PreconditionKey[] | undefined) {
  if (!keys?.length) return z.object(shortcutDefinitionShape);
  const precondition = shortcutPreconditionSchema.extend({
    key: z
      .string()
      .min(1)
      .meta({ description: 'One of examples; <serial> is a serial or a {param}.', examples: keys.map((k) => k.key) }),
  });
  return z.object({ ...shortcutDefinitionShape, preconditions: z.array(precondition).optional() });
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
      'Defines the tool "shortcut.<name>": up to 16 calls with parameters. In step args "{param}" is a parameter ' +
      '(each must be used), "{n}" and "{n.path}" as in tool_batch_run.',
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
        message:
          `${replaced ? 'Replaced' : 'Defined'} ${definition.id}; call ` +
          `it as the tool '${definition.id}' or through shortcut_run.`,
      });
    },
  });
}

export function shortcutListTool(deps: ShortcutToolDeps) {
  return defineTool({
    id: 'shortcut_list',
    title: 'List shortcuts',
    description:
      'Lists the defined shortcuts, and suggests new ones from tool sequences often called in the same order.',
    input: z.object({
      includeSuggestions: z.boolean().default(true),
      minCount: z.number().int().min(2).max(1000).default(MIN_COUNT).describe('Times a sequence was seen.'),
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
    description: 'Runs a defined shortcut by id, as calling the tool "shortcut.<name>" does.',
    input: z.object({
      id: z.string().min(1).describe('e.g. "shortcut.open_wifi_settings".'),
      params: ARGUMENTS.optional(),
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
