/**
 * mcp_call: call a tool of a connected MCP server by server and tool name. It runs the proxy tool
 * `mcp.<server>.<tool>` as a nested call through the pipeline (ctx.invoke), so the remote call is
 * gated, limited and traced exactly like calling the proxy directly; mcp_call itself adds nothing
 * to approve.
 */
import { z } from 'zod';
import { ARGUMENTS } from '../core/fields';
import { defineTool } from '../core/tool';
import type { McpClientManager } from './manager';

const input = z.object({
  server: z.string().min(1).describe('As mcp_list names it.'),
  tool: z.string().min(1).describe('Its remote name.'),
  arguments: ARGUMENTS.default({}),
});

export function mcpCallTool(manager: McpClientManager) {
  return defineTool({
    id: 'mcp_call',
    title: 'Call MCP tool',
    description: 'Calls a tool of a connected MCP server, as calling mcp.<server>.<tool> does.',
    input,
    metadata: { category: 'mcp', risk: 'MEDIUM' },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: false,
    },
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
