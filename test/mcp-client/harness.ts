/**
 * The MCP client tools behind the pipeline the host runs (test/support/family-pipeline.ts), with a
 * recording approval decider, as a host wires them.
 */
import { join } from 'node:path';
import type { ApprovalDecision, ApprovalRequest } from '../../tools/core/permission';
import type { ToolRegistry } from '../../tools/core/registry';
import type { ToolResult } from '../../tools/core/result';
import type { ProgressUpdate } from '../../tools/core/tool';
import type { ToolUsageTracker } from '../../tools/core/usage-tracker';
import { type McpClientManager, type McpLaunchApprover, mcpClientTools } from '../../tools/mcp-client';
import { familyPipeline } from '../support/family-pipeline';

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
  const family = familyPipeline({ decide: (request) => h.decide(request) });
  const { tools, manager } = mcpClientTools({ registry: family.registry, ...options });
  family.registry.registerAll(tools);
  const h: McpHarness = {
    registry: family.registry,
    manager,
    usage: family.pipeline.usage,
    approvals: family.approvals,
    decide: () => ({ decision: 'approve_once' }),
    call: (toolId, args, opts = {}) => family.call(toolId, args, opts),
    dispose: () => manager.dispose(),
  };
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
