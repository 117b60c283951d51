/** mcp_list: the connected MCP servers, their state and their tools (local state only; no server is contacted). */
import { z } from 'zod';
import { failure, success } from '../core/result';
import { defineTool } from '../core/tool';
import type { McpClientManager } from './manager';
import { describeServer } from './mcp-connect';

const input = z.object({
  server: z.string().min(1).optional(),
});

export function mcpListTool(manager: McpClientManager) {
  return defineTool({
    id: 'mcp_list',
    title: 'List MCP servers',
    description: 'Lists the connected MCP servers, their state and their tools.',
    input,
    metadata: { category: 'mcp', risk: 'LOW' },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    run(args) {
      const servers = args.server ? [manager.get(args.server)].filter((s) => s !== undefined) : manager.list();
      if (args.server && servers.length === 0) {
        const names = manager.list().map((s) => s.name);
        return failure('NOT_FOUND', `No MCP server named '${args.server}' is connected.`, {
          hint: names.length
            ? `Connected servers: ${names.join(', ')}.`
            : 'No server is connected; use mcp_connect first.',
          data: { servers: names },
        });
      }
      const text =
        servers.length === 0
          ? 'No MCP servers are connected. Use mcp_connect to connect one.'
          : servers.map((s) => describeServer(s)).join('\n\n');
      return success(text, { servers });
    },
  });
}
