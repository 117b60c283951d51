/**
 * The MCP client family: mcp_connect, mcp_list, mcp_call, plus remote tools registered as
 * `mcp.<server>.<tool>` proxies. A host wires it as
 *
 *   const mcp = mcpClientTools({ registry, approve });
 *   registry.registerToolset(MCP_CLIENT_TOOLSET, mcp.tools);
 *   // on shutdown: await mcp.manager.dispose();
 *
 * and imports a user's config with `importMcpConfig(json)`, connecting chosen servers with
 * `mcp.manager.connect(spec)` (a person's click in the UI) or through mcp_connect (gated).
 */
import type { ToolRegistry } from '../core/registry';
import type { Tool } from '../core/tool';
import { McpClientManager, type McpClientManagerOptions } from './manager';
import { mcpCallTool } from './mcp-call';
import { mcpConnectTool } from './mcp-connect';
import { mcpListTool } from './mcp-list';

export interface McpClientToolsOptions extends McpClientManagerOptions {
  registry: ToolRegistry;
}

export function mcpClientTools(options: McpClientToolsOptions): { tools: Tool[]; manager: McpClientManager } {
  const { registry, ...managerOptions } = options;
  const manager = new McpClientManager(registry, managerOptions);
  return { tools: [mcpConnectTool(manager), mcpListTool(manager), mcpCallTool(manager)], manager };
}

export { MCP_CLIENT_TOOLSET } from './toolset';
export { type McpConfigFieldError, type McpConfigImport, importMcpConfig } from './config-import';
export type { McpLaunchApprover, McpLaunchDecision, McpLaunchRequest } from './launch-approval';
export { McpClientManager, type McpClientManagerOptions, type McpServerSummary, type McpToolSummary } from './manager';
export { remoteAnnotations } from './proxy-tool';
export { type HttpServerSpec, type McpServerSpec, type StdioServerSpec, commandLine } from './server-spec';
export { assignProxyIds, idSegment } from './tool-ids';
