/**
 * How a registered tool and a ToolResult look on the MCP wire: tools/list entries with the JSON
 * Schema from the tool's zod declaration and the four MCP annotation hints; results where a
 * failure is `isError: true` with the rendered text and `{code, message, hint}` as structured
 * content, never a protocol error.
 */
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { publishedName } from '../../core/published-name';
import { type ToolResult, renderResult } from '../../core/result';
import type { Tool } from '../../core/tool';

export function toMcpTool(tool: Tool): McpTool {
  const a = tool.metadata.annotations;
  const entry: McpTool = {
    name: publishedName(tool.id),
    title: tool.title,
    description: tool.description,
    inputSchema: { ...tool.inputSchema, type: 'object' } as McpTool['inputSchema'],
    annotations: {
      title: tool.title,
      readOnlyHint: a.readOnlyHint,
      destructiveHint: a.destructiveHint,
      idempotentHint: a.idempotentHint,
      openWorldHint: a.openWorldHint,
    },
    _meta: {
      'toolgate/risk': tool.metadata.risk,
      'toolgate/category': tool.metadata.category,
      'toolgate/id': tool.id,
      'toolgate/sensitiveAction': a.sensitiveAction,
    },
  };
  if (tool.outputSchema) entry.outputSchema = { ...tool.outputSchema, type: 'object' } as McpTool['outputSchema'];
  return entry;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function toMcpResult(result: ToolResult, callId: string): CallToolResult {
  if (!result.ok) {
    const { code, message, hint, data } = result.error;
    return {
      isError: true,
      content: [{ type: 'text', text: renderResult(result) }],
      structuredContent: { code, message, hint, ...(data ? { data } : {}) },
      _meta: { 'toolgate/callId': callId },
    };
  }
  const content: CallToolResult['content'] = result.content.map((c) =>
    c.type === 'text' ? { type: 'text', text: c.text } : { type: 'image', data: c.data, mimeType: c.mimeType },
  );
  const out: CallToolResult = { content, _meta: { 'toolgate/callId': callId } };
  if (isPlainObject(result.structured)) out.structuredContent = result.structured;
  return out;
}
