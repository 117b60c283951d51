/**
 * The tool contract. A tool is one small declarative module:
 * `defineTool({ id, title, description, input: z.object({...}), metadata, annotations, run })`.
 * The zod input is both the validation and the JSON Schema agents see.
 */
import type { z } from 'zod';
import type { ToolAnnotations } from './annotations';
import { type ToolMetadata, type ToolMetadataDeclaration, resolveMetadata } from './metadata';
import type { ToolResult } from './result';
import type { RunPolicyName } from './run-policy-name';
import { type JsonSchema, type Validation, importJsonSchema, renderJsonSchema, validateWith } from './schema';

/** A caller as a person reads it. */
export interface Caller {
  /** `replay`: a person ran an earlier call again with its arguments (that call's id in `id`). */
  kind: 'mcp' | 'ui' | 'batch' | 'shortcut' | 'internal' | 'replay';
  /** The MCP session's label, the UI session, the parent call id, or the replayed call's id. */
  id?: string;
  label?: string;
}

/** Who asked for a call; shown to the person who approves it. */
export interface Requester extends Caller {
  /** The step of a batch or shortcut this call is (1 for the first). */
  step?: number;
  /** Who asked for the batch or shortcut this call is a step of. */
  via?: Caller;
}

export interface ToolCall {
  toolId: string;
  args?: unknown;
  callId?: string;
  sessionId?: string;
  requester?: Requester;
  /** Cancels the call; the running tool sees it through `ctx.signal`. */
  signal?: AbortSignal;
  onProgress?: (progress: ProgressUpdate) => void;
}

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export interface ToolContext {
  readonly callId: string;
  readonly sessionId: string;
  readonly requester: Requester;
  /** Aborted when the call is cancelled or times out. */
  readonly signal: AbortSignal;
  progress(update: ProgressUpdate): void;
  /** Runs another tool as a nested call through the same executor (batches, shortcuts, MCP client). */
  invoke(call: ToolCall): Promise<ToolResult>;
}

/** What a tool may return: a result, plain text, or (for v1 tools) an `Error: …` string. */
export type ToolReturn = ToolResult | string;

export interface Tool<Args = unknown> {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly metadata: ToolMetadata;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema | undefined;
  /** Has its own command-level gate (shell_execute): the tool-level prompt is skipped. */
  readonly selfGated: boolean;
  /**
   * The run policy preset it runs under; the pipeline picks one by metadata otherwise. The registry refuses other
   * names.
   */
  readonly runPolicy: RunPolicyName | undefined;
  /** What the circuit breaker is kept per (e.g. a device serial), beyond the tool; undefined = the tool. */
  breakerScope?(args: Args): string | undefined;
  /**
   * A cheap, read-only look at whether the call can succeed at all (the file is there, the key is
   * known), run before a person is asked: it throws a ToolCallError (NOT_FOUND…) to end the call
   * there. Never trusted for security: the tool checks again when it runs.
   */
  precheck?(args: Args): Promise<void> | void;
  validate(args: unknown): Validation<Args>;
  run(args: Args, ctx: ToolContext): Promise<ToolReturn> | ToolReturn;
}

export interface ToolDefinition<S extends z.ZodType> {
  id: string;
  title?: string;
  description: string;
  input: S;
  output?: z.ZodType;
  metadata?: ToolMetadataDeclaration;
  annotations?: Partial<ToolAnnotations>;
  selfGated?: boolean;
  runPolicy?: RunPolicyName;
  breakerScope?: (args: z.infer<S>) => string | undefined;
  /** Read-only, before anyone is asked (Tool.precheck). */
  precheck?: (args: z.infer<S>) => Promise<void> | void;
  run(args: z.infer<S>, ctx: ToolContext): Promise<ToolReturn> | ToolReturn;
}

export function titleFromId(id: string): string {
  const words = id
    .replace(/^shortcut\./, '')
    .split(/[_.]/)
    .filter(Boolean);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): Tool<z.infer<S>> {
  const inputSchema = renderJsonSchema(def.input);
  const outputSchema = def.output ? renderJsonSchema(def.output) : undefined;
  return {
    id: def.id,
    title: def.title ?? titleFromId(def.id),
    description: def.description,
    metadata: resolveMetadata(def.id, def.metadata, def.annotations),
    inputSchema,
    outputSchema,
    selfGated: def.selfGated ?? false,
    runPolicy: def.runPolicy,
    ...(def.breakerScope ? { breakerScope: def.breakerScope } : {}),
    ...(def.precheck ? { precheck: def.precheck } : {}),
    validate: (args) => validateWith(def.input as z.ZodType<z.infer<S>>, args),
    run: def.run,
  };
}

export interface LegacyToolDefinition {
  id: string;
  title?: string;
  description: string;
  /** A v1 hand-written JSON Schema string; imported leniently. */
  parametersSchema?: string;
  metadata?: ToolMetadataDeclaration;
  annotations?: Partial<ToolAnnotations>;
  selfGated?: boolean;
  runPolicy?: RunPolicyName;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolReturn> | ToolReturn;
}

/** A v1 tool: its JSON Schema string validates what parses; an unparseable one is skipped, never fatal. */
export function defineLegacyTool(def: LegacyToolDefinition): Tool<Record<string, unknown>> {
  const imported = importJsonSchema(def.parametersSchema);
  const validator = imported.validator;
  return {
    id: def.id,
    title: def.title ?? titleFromId(def.id),
    description: def.description,
    metadata: resolveMetadata(def.id, def.metadata, def.annotations),
    inputSchema: imported.jsonSchema,
    outputSchema: undefined,
    selfGated: def.selfGated ?? false,
    runPolicy: def.runPolicy,
    validate: (args) => {
      if (validator) {
        const checked = validateWith(validator, args);
        if (!checked.ok) return checked;
      }
      const value =
        typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
      return { ok: true, value };
    },
    run: def.run,
  };
}
