/** The MCP client tools behind the real v2 executor with a recording approval decider, as a host wires them. */
import { join } from 'node:path';
import { DefaultToolExecutor } from '../../tools/core/executor';
import type { ApprovalDecision, ApprovalRequest } from '../../tools/core/permission';
import { ToolPermissionManager } from '../../tools/core/permission';
import { ToolRegistry } from '../../tools/core/registry';
import type { ToolResult } from '../../tools/core/result';
import type { ProgressUpdate } from '../../tools/core/tool';
import { ToolUsageTracker } from '../../tools/core/usage-tracker';
import { type McpClientManager, type McpLaunchApprover, mcpClientTools } from '../../tools/mcp-client';

export const STDIO_FIXTURE = join(__dirname, 'fixtures', 'stdio-server.mjs');

export interface McpHarness {
  registry: ToolRegistry;
  manager: McpClientManager;
  usage: ToolUsageTracker;
  approvals: ApprovalRequest[];
  /** What the approval decider answers; approve once by default. */
  decide: (r: ApprovalRequest) => ApprovalDecision;
  call(toolId: string, args: unknown, opts?: { onProgress?: (p: ProgressUpdate) => void }): Promise<ToolResult>;
  dispose(): Promise<void>;
}

export function mcpHarness(options: { approve?: McpLaunchApprover; callTimeoutMs?: number } = {}): McpHarness {
  const registry = new ToolRegistry();
  const { tools, manager } = mcpClientTools({ registry, ...options });
  registry.registerAll(tools);
  const usage = new ToolUsageTracker();
  const h: McpHarness = {
    registry,
    manager,
    usage,
    approvals: [],
    decide: () => ({ decision: 'approve_once' }),
    call: (toolId, args, opts = {}) => executor.execute({ toolId, args, ...opts }),
    dispose: () => manager.dispose(),
  };
  const permissions = new ToolPermissionManager(async (request) => {
    h.approvals.push(request);
    return h.decide(request);
  });
  const executor = new DefaultToolExecutor(registry, { permissions, usage });
  return h;
}

export function stdioArgs(name = 'fixture', extra: Record<string, unknown> = {}) {
  return { name, command: process.execPath, args: [STDIO_FIXTURE], ...extra };
}

export function failed(result: ToolResult) {
  if (result.ok) throw new Error(`expected a failure, got: ${JSON.stringify(result.content).slice(0, 300)}`);
  return result.error;
}

export function text(result: ToolResult): string {
  if (!result.ok) throw new Error(`expected success, got ${result.error.code}: ${result.error.message}`);
  return result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}

export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
}
