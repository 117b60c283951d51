/**
 * How a registered tool and a ToolResult look on the MCP wire: tools/list entries with the JSON
 * Schema from the tool's zod declaration and the four MCP annotation hints; results where a
 * failure is `isError: true` with the rendered text and `{code, message, hint}` as structured
 * content, never a protocol error.
 *
 * A tools/list entry is read by every model on every request, so it says each thing once. The
 * hints are written where they differ from what the MCP specification assumes of an absent hint,
 * and where a client that confirms calls by them would be misled: `readOnlyHint` only when true;
 * for a tool that is not read-only, `destructiveHint` always (clients ask before a destructive
 * call, and the default, true, is the one a careless client gets wrong) and `idempotentHint` when
 * true (the specification gives both meaning only then); `openWorldHint` only when false, the
 * specification's default being true. The title is not
 * repeated inside the annotations. `_meta` holds what no standard field says and a client may act
 * on: `toolgate/risk: HIGH` for the tools whose every call a person weighs, and the seed id when the
 * published name differs from it; other tools have none. Lower risks and `sensitiveAction` stay
 * Toolgate's own (approvals, the Tools page): no model reads `_meta`, and every client pays for it.
 */
import type { CallToolResult, Tool as McpTool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ToolAnnotations as Hints } from '../../core/annotations';
import { publishedName } from '../../core/published-name';
import { type ToolResult, renderResult } from '../../core/result';
import type { Tool } from '../../core/tool';

/** The hints as published: only those that say something (see above). */
export function publishedHints(a: Hints): ToolAnnotations {
  const closed = a.openWorldHint ? {} : { openWorldHint: false };
  if (a.readOnlyHint) return { readOnlyHint: true, ...closed };
  return { destructiveHint: a.destructiveHint, ...(a.idempotentHint ? { idempotentHint: true } : {}), ...closed };
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
    ...(tool.metadata.risk === 'HIGH' ? { 'toolgate/risk': tool.metadata.risk } : {}),
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
