/**
 * mcp_connect: start an MCP server program (stdio) or open a Streamable HTTP endpoint, and make
 * its tools callable as `mcp.<name>.<tool>`. Starting a program runs code on this computer, so
 * the tool is HIGH risk: the pipeline's approval gate shows the person the call's arguments — the
 * program and each argument exactly as given, never a shell string — before anything starts.
 */
import { z } from 'zod';
import { timeoutMs } from '../core/fields';
import { ToolCallError, success } from '../core/result';
import { defineTool } from '../core/tool';
import type { McpClientManager, McpServerSummary } from './manager';
import { type McpServerSpec, httpFields, serverNameInput, stdioFields } from './server-spec';

const input = z.object({
  name: serverNameInput,
  command: stdioFields.command.optional(),
  args: z
    .array(z.string())
    .optional()
    .describe(stdioFields.args.description ?? 'Program arguments, exactly as given.'),
  env: z
    .record(z.string(), z.string())
    .optional()
    .describe(stdioFields.env.description ?? 'Extra environment variables.'),
  cwd: z.string().min(1).optional().describe("The program's working folder."),
  url: httpFields.url.optional(),
  headers: z
    .record(z.string(), z.string())
    .optional()
    .describe(httpFields.headers.description ?? 'HTTP headers.'),
  timeoutMs: timeoutMs(1, 300_000).optional().describe('For the handshake; 30000 if omitted.'),
});

type Input = z.infer<typeof input>;

export function mcpConnectTool(manager: McpClientManager) {
  return defineTool({
    id: 'mcp_connect',
    title: 'Connect MCP server',
    description:
      'Connects an MCP server, whose tools become mcp.<name>.<tool>: a program over stdio (run exactly as given, ' +
      'without a shell, once a person approves) or a Streamable HTTP url.',
    input,
    metadata: { category: 'mcp', risk: 'HIGH' },
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: true,
    },
    // Per server: one program that does not start does not pause connecting the others.
    breakerScope: (args) => args.name,
    async run(args, ctx) {
      const summary = await manager.connect(toSpec(args), {
        signal: ctx.signal,
        ...(args.timeoutMs ? { timeoutMs: args.timeoutMs } : {}),
      });
      return success(describeServer(summary, 'Connected'), summary);
    },
  });
}

function toSpec(args: Input): McpServerSpec {
  if ((args.command === undefined) === (args.url === undefined)) {
    throw invalid(
      ['command', 'url'],
      'give either "command" (a program to start) or "url" (an HTTP endpoint), not both and not neither',
    );
  }
  if (args.command !== undefined) {
    if (args.headers) throw invalid(['headers'], '"headers" only apply to a "url" server');
    return {
      name: args.name,
      transport: 'stdio',
      command: args.command,
      args: args.args ?? [],
      env: args.env ?? {},
      ...(args.cwd ? { cwd: args.cwd } : {}),
    };
  }
  const stray = (['args', 'env', 'cwd'] as const).filter((f) => args[f] !== undefined);
  if (stray.length > 0)
    throw invalid([...stray], `${stray.map((f) => `"${f}"`).join(', ')} only apply to a "command" server`);
  return { name: args.name, transport: 'http', url: args.url as string, headers: args.headers ?? {} };
}

function invalid(fields: string[], message: string): ToolCallError {
  return new ToolCallError('INVALID_ARGUMENT', `Invalid arguments: ${message}.`, { data: { fields } });
}

export function describeServer(s: McpServerSummary, verb?: string): string {
  const head =
    `${verb ? `${verb} ` : ''}MCP server '${s.name}' (${s.transport}: ${s.target}) ` +
    `— ${s.status}${s.server ? `, ${s.server.name} ${s.server.version}` : ''}${s.error ? ` (${s.error})` : ''}`;
  const tools = s.tools.map((t) => {
    const mark = t.readOnly ? ' [read-only]' : t.destructive ? ' [destructive]' : '';
    return `  ${t.id} — ${t.description.split('\n')[0] || t.title}${mark}`;
  });
  return [
    `${head}; ${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}${tools.length ? ':' : '.'}`,
    ...tools,
  ].join('\n');
}
