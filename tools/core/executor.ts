/**
 * DefaultToolExecutor, the v2 pipeline (docs/architecture.md#the-v2-executor): lookup → permission
 * → validation → run → result. Whatever happens, the caller gets a ToolResult: an unknown tool gets
 * suggestions, a tool that throws or returns garbage becomes EXECUTION_FAILED. Nothing escapes as
 * an exception.
 */
import { newCallId } from './call-ids';
import type { ToolPermissionManager } from './permission';
import type { ToolRegistry } from './registry';
import { type ToolResult, failure, isToolCallError, normalizeResult } from './result';
import type { Tool, ToolCall, ToolContext } from './tool';
import type { ToolUsageTracker } from './usage-tracker';

export interface ToolExecutor {
  execute(call: ToolCall): Promise<ToolResult>;
}

export const DEFAULT_SESSION = 'local';

export function unknownToolResult(toolId: string, suggestions: string[]): ToolResult {
  const tail = suggestions.length > 0 ? ` Did you mean: ${suggestions.join(', ')}?` : '';
  return failure('NOT_FOUND', `Unknown tool '${toolId}'.${tail}`, {
    hint:
      suggestions.length > 0
        ? 'Call one of the suggested tools instead.'
        : 'List the available tools and pick one of those.',
    data: { suggestions },
  });
}

/** Turns anything a tool threw into a result; a ToolCallError keeps its code. */
export function thrownToResult(toolId: string, e: unknown): ToolResult {
  if (isToolCallError(e)) return e.toResult();
  const message = e instanceof Error ? e.message : String(e);
  return failure('EXECUTION_FAILED', `Tool '${toolId}' failed: ${message}`);
}

const NEVER_ABORTED = new AbortController().signal;

export function makeContext(
  call: ToolCall,
  callId: string,
  invoke: ToolContext['invoke'],
  signal?: AbortSignal,
): ToolContext {
  const onProgress = call.onProgress;
  return {
    callId,
    sessionId: call.sessionId ?? DEFAULT_SESSION,
    requester: call.requester ?? { kind: 'internal' },
    signal: signal ?? call.signal ?? NEVER_ABORTED,
    progress: (update) => onProgress?.(update),
    invoke,
  };
}

/** Runs a tool and normalises whatever it returned or threw. */
export async function runTool(tool: Tool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  try {
    return normalizeResult(await tool.run(args, ctx), tool.id);
  } catch (e) {
    return thrownToResult(tool.id, e);
  }
}

export class DefaultToolExecutor implements ToolExecutor {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly options: {
      permissions?: ToolPermissionManager;
      usage?: ToolUsageTracker;
      now?: () => number;
    } = {},
  ) {}

  async execute(call: ToolCall): Promise<ToolResult> {
    const lookup = this.registry.lookup(call.toolId);
    if (!lookup.found) return unknownToolResult(call.toolId, lookup.suggestions);
    const tool = lookup.tool;
    const callId = call.callId ?? newCallId();
    const now = this.options.now ?? performance.now.bind(performance);
    const started = now();
    const result = await this.gateAndRun(tool, call, callId);
    this.options.usage?.record(tool.id, now() - started, result.ok ? undefined : result.error);
    return result;
  }

  private async gateAndRun(tool: Tool, call: ToolCall, callId: string): Promise<ToolResult> {
    try {
      const denied = await this.options.permissions?.check(
        tool,
        {
          callId,
          sessionId: call.sessionId ?? DEFAULT_SESSION,
          args: call.args,
          requester: call.requester ?? { kind: 'internal' },
        },
        call.signal,
      );
      if (denied) return denied;
      const validated = tool.validate(call.args);
      if (!validated.ok) return validated;
      const invoke = (nested: ToolCall) =>
        this.execute({
          sessionId: call.sessionId,
          ...nested,
          requester: nested.requester ?? { kind: 'internal', id: callId },
        });
      return await runTool(tool, validated.value, makeContext(call, callId, invoke));
    } catch (e) {
      return thrownToResult(tool.id, e);
    }
  }
}
