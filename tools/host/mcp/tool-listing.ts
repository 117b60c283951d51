/**
 * How a registered tool and a ToolResult look on the MCP wire: tools/list entries with the JSON
 * Schema from the tool's zod declaration and the four MCP annotation hints; results where a
 * failure is `isError: true` with the rendered text and `{code, message, hint}` as structured
 * content, never a protocol error.
 *
 * A tools/list entry is read by every model on every request, so it says each thing once. The
 * hints are written where they differ from what the MCP specification assumes of an absent hint,
 * and where a client that reads an absent hint as false would be misled: `readOnlyHint` only when
 * true; for a tool that is not read-only, `destructiveHint` always and `idempotentHint` when true
 * (the specification gives both meaning only then); `openWorldHint` always. The title is not
 * repeated inside the annotations. `_meta` holds the risk when it is not LOW (absent means LOW),
 * `sensitiveAction` when true, and the seed id when the published name differs from it; a LOW,
 * insensitive tool under its own id has none.
 */
import type { CallToolResult, Tool as McpTool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ToolAnnotations as Hints } from '../../core/annotations';
import { publishedName } from '../../core/published-name';
import { type ToolResult, renderResult } from '../../core/result';
import type { Tool } from '../../core/tool';

/** The hints as published: only those that say something (see above). */
export function publishedHints(a: Hints): ToolAnnotations {
  if (a.readOnlyHint) return { readOnlyHint: true, openWorldHint: a.openWorldHint };
  return {
    destructiveHint: a.destructiveHint,
    ...(a.idempotentHint ? { idempotentHint: true } : {}),
    openWorldHint: a.openWorldHint,
  };
}

export function toMcpTool(tool: Tool): McpTool {
  const a = tool.metadata.annotations;
  const name = publishedName(tool.id);
  const entry: McpTool = {
    name,
    title: tool.title,
    description: tool.description,
    inputSchema: { type: 'object', ...tool.inputSchema } as McpTool['inputSchema'],
    annotations: publishedHints(a),
  };
  const meta = {
    ...(tool.metadata.risk !== 'LOW' ? { 'toolgate/risk': tool.metadata.risk } : {}),
    ...(a.sensitiveAction ? { 'toolgate/sensitiveAction': true } : {}),
    ...(name !== tool.id ? { 'toolgate/id': tool.id } : {}),
  };
  if (Object.keys(meta).length > 0) entry._meta = meta;
  if (tool.outputSchema) entry.outputSchema = { type: 'object', ...tool.outputSchema } as McpTool['outputSchema'];
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
