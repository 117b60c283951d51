/** Runs the network tools through the pipeline the host runs (test/support/family-pipeline.ts). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApprovalRequest } from '../../tools/core/permission';
import type { ToolRegistry } from '../../tools/core/registry';
import type { ToolResult } from '../../tools/core/result';
import type { ProgressUpdate } from '../../tools/core/tool';
import { type NetworkToolsOptions, networkTools } from '../../tools/network';
import { familyPipeline } from '../support/family-pipeline';

export interface NetworkHarness {
  workspace: string;
  registry: ToolRegistry;
  /** What a person was asked (download_file writes into the workspace). */
  approvals: ApprovalRequest[];
  call(
    toolId: string,
    args: unknown,
    opts?: { signal?: AbortSignal; onProgress?: (p: ProgressUpdate) => void },
  ): Promise<ToolResult>;
  dispose(): void;
}

export function networkHarness(options: Partial<NetworkToolsOptions> = {}): NetworkHarness {
  const workspace = mkdtempSync(join(tmpdir(), 'net-ws-'));
  const family = familyPipeline({ tools: networkTools({ workspaceRoot: workspace, ...options }) });
  return {
    workspace,
    registry: family.registry,
    approvals: family.approvals,
    call: (toolId, args, opts = {}) => family.call(toolId, args, opts),
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
