/**
 * The v3 built-in tools (docs/architecture.md#batches, docs/architecture.md#shortcuts,
 * docs/architecture.md#tool-families): wait, json_transform, version_compare, tool_batch_run,
 * shortcut_define, shortcut_list, shortcut_run.
 *
 * Host wiring:
 *   registry.registerAll(orchestrationTools({ registry, shortcutStore, traceSpans, telemetry }));
 *   // after every other family is registered:
 *   loadShortcuts(shortcutStore, registry, { telemetry, observer });
 * Nested calls (batch steps, shortcut steps) go through ctx.invoke, which the executor wires
 * to itself, so each is gated and traced like an agent's own call.
 */
import type { ToolRegistry } from '../core/registry';
import type { Tool } from '../core/tool';
import type { CallObserver } from '../core/call-observer';
import type { TraceSpan } from '../core/trace-span';
import { batchTool } from './batch-tool';
import { jsonTransformTool } from './json-transform-tool';
import type { ShortcutStore } from './shortcut-store';
import type { TelemetryReader } from './shortcut-tool';
import type { SuggestOptions } from './shortcut-suggester';
import type { PreconditionKey } from './shortcut-preconditions';
import { shortcutDefineTool, shortcutListTool, shortcutRunTool } from './shortcut-tools';
import { versionCompareTool } from './version-compare-tool';
import { type Sleep, waitTool } from './wait-tool';

export interface OrchestrationDeps {
  registry: ToolRegistry;
  shortcutStore: ShortcutStore;
  /** Recent trace spans, for shortcut suggestions. */
  traceSpans?: () => readonly TraceSpan[];
  /** Environment telemetry for shortcut preconditions; undefined means unknown (fail-open). */
  telemetry?: TelemetryReader;
  /** Sees every batch and shortcut step as it starts and ends (the host keeps their arguments in memory). */
  observer?: CallObserver;
  /** Whether two calls gave a field the same value (the host's memory of arguments), for shortcut drafts. */
  sameArgument?: SuggestOptions['sameArgument'];
  /** The telemetry keys the host has (shortcut_define lists and checks them). */
  preconditionKeys?: readonly PreconditionKey[];
  sleep?: Sleep;
}

export function orchestrationTools(deps: OrchestrationDeps): Tool[] {
  return [
    waitTool({ sleep: deps.sleep }),
    jsonTransformTool(),
    versionCompareTool(),
    batchTool(deps.observer ? { observer: deps.observer } : {}),
    shortcutDefineTool(deps),
    shortcutListTool(deps),
    shortcutRunTool(deps),
  ];
}

export { BATCH_TOOL_ID, parseBatchSteps } from './batch-tool';
export { applyTransform, TransformError, type TransformStep } from './json-transform';
export {
  SHORTCUT_PREFIX,
  type ShortcutDefinition,
  type ShortcutParam,
  type ShortcutParamType,
  type ShortcutPrecondition,
  type ShortcutStep,
  shortcutDefinitionSchema,
  shortcutParamSchema,
  shortcutPreconditionSchema,
  shortcutStepSchema,
} from './shortcut-definition';
export {
  defineShortcut,
  InMemoryShortcutStore,
  type LoadReport,
  loadShortcuts,
  removeShortcut,
  type ShortcutStore,
} from './shortcut-store';
export {
  MAX_GAP_MS,
  MIN_COUNT,
  MIN_PAIR_COUNT,
  type ShortcutSuggestion,
  type SuggestionEvidence,
  suggestShortcuts,
  type SuggestOptions,
} from './shortcut-suggester';
export { compileShortcut, paramsInput, type ShortcutProfile, shortcutProfile } from './shortcut-tool';
export type { TelemetryReader } from './shortcut-preconditions';
export { isCompositeTool, validateShortcut, type ValidateOptions } from './shortcut-validation';
export {
  keyPattern,
  matchingKeys,
  type PreconditionKey,
  preconditionFailure,
  resolveKey,
} from './shortcut-preconditions';
export {
  DEFAULT_BUDGET_MS,
  type FieldIssue,
  MAX_BUDGET_MS,
  MAX_STEPS,
  NOT_EXECUTED,
  type StepOutcome,
} from './step-runner';
export { REFERENCE_LIMIT_BYTES } from './template';
export { MAX_WAIT_SECONDS, realSleep, type Sleep } from './wait-tool';
