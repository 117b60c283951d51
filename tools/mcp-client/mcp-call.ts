/**
 * mcp_call: call a tool of a connected MCP server by server and tool name. It runs the proxy tool
 * `mcp.<server>.<tool>` as a nested call through the pipeline (ctx.invoke), so the remote call is
 * gated, limited and traced exactly like calling the proxy directly; mcp_call itself adds nothing
 * to approve.
 */
import { z } from 'zod';
import { defineTool } from '../core/tool';
import type { McpClientManager } from './manager';

const input = z.object({
  server: z.string().min(1).describe('Name of the connected MCP server, as shown by mcp_list.'),
  tool: z.string().min(1).describe('Name of the tool on that server (its remote name or its mcp.<server>.<tool> id).'),
  arguments: z
    .record(z.string(), z.unknown())
    .default({})
    .describe('Arguments for the remote tool, as described by its input schema in mcp_list.'),
});

export function mcpCallTool(manager: McpClientManager) {
  return defineTool({
    id: 'mcp_call',
    title: 'Call MCP tool',
    description:
      'Call a tool of a connected MCP server. Same as calling its id mcp.<server>.<tool> directly; approval, if the remote tool needs it, is asked for that tool.',
    input,
    metadata: { category: 'mcp', risk: 'MEDIUM' },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    // One breaker per server: a server that went away does not pause calls to the others.
    breakerScope: (args) => args.server,
    async run(args, ctx) {
      const resolved = manager.resolveTool(args.server, args.tool);
      if (!('id' in resolved)) return resolved;
      return ctx.invoke({
        toolId: resolved.id,
        args: args.arguments,
        signal: ctx.signal,
        onProgress: (p) => ctx.progress(p),
        requester: { kind: 'internal', id: ctx.callId, label: 'mcp_call' },
      });
    },
  });
}
