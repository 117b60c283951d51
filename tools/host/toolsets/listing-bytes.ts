/**
 * What a toolset costs a client: the bytes of its entries in the tools/list answer, drawn exactly as
 * the MCP endpoint draws them, so toolset_list, the Tools page and the budget test agree.
 */
import type { ToolRegistry } from '../../core/registry';
import type { Tool } from '../../core/tool';
import { toMcpTool } from '../mcp/tool-listing';

export function listingBytes(tools: readonly Tool[]): number {
  return Buffer.byteLength(JSON.stringify(tools.map(toMcpTool)));
}

export function toolsetBytes(registry: ToolRegistry, name: string): number {
  return listingBytes(registry.toolsOf(name));
}

/** `9.1 KB`, `870 B`: what a model and a person read. */
export function formatBytes(bytes: number): string {
  return bytes < 1000 ? `${bytes} B` : `${(bytes / 1000).toFixed(1)} KB`;
}
