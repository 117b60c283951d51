/** Runs the network tools through the real v2 executor, as a host would. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultToolExecutor } from '../../tools/core/executor';
import { ToolRegistry } from '../../tools/core/registry';
import type { ToolResult } from '../../tools/core/result';
import type { ProgressUpdate } from '../../tools/core/tool';
import { type NetworkToolsOptions, networkTools } from '../../tools/network';

export interface NetworkHarness {
  workspace: string;
  registry: ToolRegistry;
  call(
    toolId: string,
    args: unknown,
    opts?: { signal?: AbortSignal; onProgress?: (p: ProgressUpdate) => void },
  ): Promise<ToolResult>;
  dispose(): void;
}

export function networkHarness(options: Partial<NetworkToolsOptions> = {}): NetworkHarness {
  const workspace = mkdtempSync(join(tmpdir(), 'net-ws-'));
  const registry = new ToolRegistry();
  registry.registerAll(networkTools({ workspaceRoot: workspace, ...options }));
  const executor = new DefaultToolExecutor(registry);
  return {
    workspace,
    registry,
    call: (toolId, args, opts = {}) => executor.execute({ toolId, args, ...opts }),
    dispose: () => rmSync(workspace, { recursive: true, force: true }),
  };
}

export function errorOf(result: ToolResult) {
  if (result.ok) throw new Error(`expected a failure, got success: ${JSON.stringify(result.content).slice(0, 300)}`);
  return result.error;
}

export function textOf(result: ToolResult): string {
  if (!result.ok) throw new Error(`expected success, got ${result.error.code}: ${result.error.message}`);
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
