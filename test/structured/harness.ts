/**
 * Calls tools the way an agent does: through the pipeline the host runs (test/support/
 * family-pipeline.ts), so schema validation, the breaker, the run policy's timeout and retry and
 * the thrown-error → result conversion are exercised with the tool.
 */
import type { ToolResult } from '../../tools/core/result';
import type { Tool } from '../../tools/core/tool';
import { familyPipeline } from '../support/family-pipeline';

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
  const { call: run } = familyPipeline({ tools });
  const call = (toolId: string, args: unknown, signal?: AbortSignal) => run(toolId, args, signal ? { signal } : {});
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
          `expected ${code} from ${toolId}, got ` +
            `success: ${JSON.stringify(result.structured ?? result.content).slice(0, 300)}`,
        );
      if (result.error.code !== code)
        throw new Error(`expected ${code} from ${toolId}, got ${result.error.code}: ${result.error.message}`);
      if (result.error.hint.length === 0) throw new Error(`${toolId} failed without a hint`);
      return result.error;
    },
  };
}
