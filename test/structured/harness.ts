/**
 * Calls tools the way an agent does: through a real ToolRegistry and the DefaultToolExecutor, so
 * schema validation and the thrown-error → result conversion are exercised with the tool.
 */
import { DefaultToolExecutor } from '../../tools/core/executor';
import { ToolRegistry } from '../../tools/core/registry';
import type { ToolResult } from '../../tools/core/result';
import type { Tool } from '../../tools/core/tool';

export interface Harness {
  call(toolId: string, args: unknown, signal?: AbortSignal): Promise<ToolResult>;
  /** Calls and expects success; returns the structured payload. */
  ok<T = Record<string, unknown>>(toolId: string, args: unknown): Promise<T>;
  /** Calls and expects a failure with this code; returns the error. */
  fails(
    toolId: string,
    args: unknown,
    code: string,
  ): Promise<{ code: string; message: string; hint: string; data?: Record<string, unknown> }>;
}

export function harness(tools: Tool[]): Harness {
  const registry = new ToolRegistry();
  registry.registerAll(tools);
  const executor = new DefaultToolExecutor(registry);
  const call = (toolId: string, args: unknown, signal?: AbortSignal) =>
    executor.execute({ toolId, args, ...(signal ? { signal } : {}) });
  return {
    call,
    async ok<T>(toolId: string, args: unknown): Promise<T> {
      const result = await call(toolId, args);
      if (!result.ok)
        throw new Error(`expected success from ${toolId}, got ${result.error.code}: ${result.error.message}`);
      return result.structured as T;
    },
    async fails(toolId: string, args: unknown, code: string) {
      const result = await call(toolId, args);
      if (result.ok)
        throw new Error(
          `expected ${code} from ${toolId}, got success: ${JSON.stringify(result.structured ?? result.content).slice(0, 300)}`,
        );
      if (result.error.code !== code)
        throw new Error(`expected ${code} from ${toolId}, got ${result.error.code}: ${result.error.message}`);
      if (result.error.hint.length === 0) throw new Error(`${toolId} failed without a hint`);
      return result.error;
    },
  };
}
