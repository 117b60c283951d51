/** Why connecting to an MCP server failed, as a ToolCallError a model (and a person) can act on. */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ToolCallError } from '../core/result';
import { toolErrorIn } from '../network/http-fetch';
import { scrub } from '../network/secrets';
import { type McpServerSpec, describeTarget, specSecrets } from './server-spec';

export function connectFailure(
  e: unknown,
  spec: McpServerSpec,
  ctx: { stderr: string; timeoutMs: number; cancelled: boolean },
): ToolCallError {
  const secrets = specSecrets(spec);
  const clean = (s: string) => scrub(s, secrets);
  const target = describeTarget(spec);
  const output = ctx.stderr.trim() ? ` Its output: ${clean(ctx.stderr.trim().slice(-500))}` : '';
  const data = { server: spec.name, transport: spec.transport };
  const refusal = toolErrorIn(e); // the address guard's own PERMISSION_DENIED, as it is
  if (refusal) return refusal;
  if (ctx.cancelled)
    return new ToolCallError('EXECUTION_FAILED', `Connecting to MCP server '${spec.name}' was cancelled.`, { data });
  const code = errnoCode(e);
  if (spec.transport === 'stdio' && (code === 'ENOENT' || code === 'EACCES')) {
    return new ToolCallError(
      'EXECUTION_FAILED',
      `Could not start ${target}: ${code === 'ENOENT' ? 'the program was not found' : 'permission denied'} (${code}).`,
      {
        hint: 'Check that the program is installed and on PATH, or give its full path.',
        data,
      },
    );
  }
  if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) {
    return new ToolCallError(
      'TIMEOUT',
      `MCP server '${spec.name}' (${target}) did not complete the MCP handshake within ${ctx.timeoutMs} ms.${output}`,
      {
        hint: 'Check that the command starts an MCP server speaking stdio (or that the URL is an MCP endpoint).',
        data,
      },
    );
  }
  if (e instanceof StreamableHTTPError || /HTTP \d{3}|Error POSTing/.test(String((e as Error)?.message))) {
    return new ToolCallError(
      'EXECUTION_FAILED',
      `The MCP endpoint ${target} refused the connection: ${clean((e as Error).message)}`,
      {
        hint: 'Check the URL (usually ending in /mcp) and any required headers such as Authorization.',
        data,
      },
    );
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND') {
    return new ToolCallError('EXECUTION_FAILED', `Could not reach the MCP endpoint ${target} (${code}).`, {
      hint: 'Check the URL and that the server is running.',
      data,
    });
  }
  const message = e instanceof Error ? e.message : String(e);
  const exited = e instanceof McpError && e.code === ErrorCode.ConnectionClosed;
  const what = exited
    ? `MCP server '${spec.name}' exited during startup`
    : `Connecting to MCP server '${spec.name}' failed`;
  return new ToolCallError('EXECUTION_FAILED', `${what}: ${clean(message)}.${output}`, {
    hint:
      spec.transport === 'stdio'
        ? 'Check the command and its arguments; run it in a terminal to see why it stops.'
        : 'Check the URL and headers.',
    data,
  });
}

/** The errno-style code of an error or of one of its causes (fetch wraps them). */
export function errnoCode(e: unknown): string | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; cur = (cur as { cause?: unknown }).cause, depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}
