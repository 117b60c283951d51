/**
 * What comes back from a remote MCP tool, as a ToolResult. A result with `isError` is a tool
 * failure (EXECUTION_FAILED with the remote text); a thrown protocol error is mapped by kind; a
 * server that is gone gets a hint to reconnect it.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type ToolContent, type ToolResult, ToolCallError, failure } from '../core/result';
import { scrub } from '../network/secrets';
import { errnoCode } from './connect-errors';

const MAX_ERROR_TEXT = 4000;

export function reconnectHint(server: string): string {
  return (
    `The MCP server '${server}' is not running; reconnect it ` +
    'with mcp_connect (same name and command or URL), then retry.'
  );
}

export function fromRemoteResult(result: CallToolResult, server: string, tool: string): ToolResult {
  const content = result.content.map(toContent);
  if (result.isError) {
    const text =
      content
        .flatMap((c) => (c.type === 'text' ? [c.text] : []))
        .join('\n')
        .trim() || 'no details given';
    return failure(
      'EXECUTION_FAILED',
      `The remote tool '${tool}' on MCP server '${server}' failed: ${text.slice(0, MAX_ERROR_TEXT)}`,
      {
        hint: 'Read the remote message, fix the arguments or the situation it describes, then retry.',
        data: { server, tool, remote: true },
      },
    );
  }
  const structured = result.structuredContent;
  if (content.length === 0 && structured !== undefined)
    content.push({ type: 'text', text: JSON.stringify(structured, null, 2) });
  return structured === undefined ? { ok: true, content } : { ok: true, content, structured };
}

function toContent(part: CallToolResult['content'][number]): ToolContent {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image', data: part.data, mimeType: part.mimeType };
    case 'audio':
      return {
        type: 'text',
        text: `[audio ${part.mimeType}, ${Math.floor((part.data.length * 3) / 4)} bytes, not shown]`,
      };
    case 'resource_link':
      return { type: 'text', text: `[resource ${part.name}: ${part.uri}]` };
    case 'resource': {
      const r = part.resource;
      return {
        type: 'text',
        text:
          'text' in r && typeof r.text === 'string'
            ? r.text
            : `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}, binary, not shown]`,
      };
    }
    default:
      return { type: 'text', text: '[unsupported content]' };
  }
}

/** A thrown error from calling a remote tool, as a ToolCallError; secrets of the spec scrubbed out. */
export function fromRemoteError(
  e: unknown,
  ctx: { server: string; tool: string; alive: boolean; secrets: readonly string[] },
): ToolCallError {
  const message = scrub(e instanceof Error ? e.message : String(e), ctx.secrets);
  const where = `'${ctx.tool}' on MCP server '${ctx.server}'`;
  if (e instanceof McpError) {
    if (e.code === ErrorCode.RequestTimeout)
      return new ToolCallError('TIMEOUT', `The remote tool ${where} did not answer in time.`);
    if (e.code === ErrorCode.InvalidParams)
      return new ToolCallError('INVALID_ARGUMENT', `The remote tool ${where} rejected the arguments: ${message}`);
    if (e.code === ErrorCode.MethodNotFound)
      return new ToolCallError('UNSUPPORTED', `MCP server '${ctx.server}' does not support calling tools: ${message}`);
  }
  const code = errnoCode(e);
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ENOTFOUND' || code === 'UND_ERR_SOCKET') {
    return new ToolCallError('EXECUTION_FAILED', `The MCP server '${ctx.server}' cannot be reached (${code}).`, {
      hint: reconnectHint(ctx.server),
      data: { server: ctx.server },
    });
  }
  if (!ctx.alive || (e instanceof McpError && e.code === ErrorCode.ConnectionClosed)) {
    return new ToolCallError('EXECUTION_FAILED', `The MCP server '${ctx.server}' is gone: ${message}`, {
      hint: reconnectHint(ctx.server),
      data: { server: ctx.server },
    });
  }
  return new ToolCallError('EXECUTION_FAILED', `Calling ${where} failed: ${message}`, {
    hint:
      'If the server stopped or is unreachable, reconnect it with ' +
      'mcp_connect; otherwise read the message and retry once.',
    data: { server: ctx.server },
  });
}
