/**
 * A remote MCP tool as a first-class local tool (`mcp.<server>.<tool>`), so calls to it go
 * through the same pipeline (approval, limits, breaker, trace) as any other. Its annotations are
 * the server's, with the MCP defaults for what the server left undeclared (not read-only,
 * destructive, not idempotent, open-world): a stranger is assumed to be dangerous.
 */
import { type ToolAnnotations, MCP_DEFAULT_ANNOTATIONS } from '../core/annotations';
import { type RiskLevel, resolveMetadata } from '../core/metadata';
import { type ToolResult, failure } from '../core/result';
import { type JsonSchema, importJsonSchema, validateWith } from '../core/schema';
import type { Tool, ToolContext } from '../core/tool';
import type { RemoteTool } from './connection';

export type RemoteCall = (remoteName: string, args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolResult>;

export function remoteAnnotations(declared: RemoteTool['annotations']): ToolAnnotations {
  const readOnly = declared?.readOnlyHint ?? MCP_DEFAULT_ANNOTATIONS.readOnlyHint;
  return {
    readOnlyHint: readOnly,
    // The spec gives destructiveHint meaning only for tools that are not read-only.
    destructiveHint: readOnly ? false : (declared?.destructiveHint ?? MCP_DEFAULT_ANNOTATIONS.destructiveHint),
    idempotentHint: declared?.idempotentHint ?? MCP_DEFAULT_ANNOTATIONS.idempotentHint,
    openWorldHint: declared?.openWorldHint ?? MCP_DEFAULT_ANNOTATIONS.openWorldHint,
    sensitiveAction: MCP_DEFAULT_ANNOTATIONS.sensitiveAction,
  };
}

export function remoteRisk(a: ToolAnnotations): RiskLevel {
  if (a.readOnlyHint) return 'LOW';
  return a.destructiveHint ? 'HIGH' : 'MEDIUM';
}

export function proxyTool(
  server: string,
  id: string,
  remote: RemoteTool,
  call: RemoteCall,
): Tool<Record<string, unknown>> {
  const annotations = remoteAnnotations(remote.annotations);
  // What the local validator understands is checked early, with field names; the server validates too.
  // Published and checked opened (docs/architecture.md#schemas): a field the schema does not name is
  // passed on to the server, which decides.
  const imported = importJsonSchema(remote.inputSchema as object);
  const inputSchema = imported.validator ? imported.jsonSchema : (remote.inputSchema as JsonSchema);
  const validator = imported.validator;
  const description =
    `${remote.description?.trim() || remote.title || remote.name} ` +
    `(tool '${remote.name}' of MCP server '${server}')`;
  return {
    id,
    title: remote.title ?? remote.annotations?.title ?? `${server}: ${remote.name}`,
    description,
    metadata: resolveMetadata(
      id,
      { category: 'mcp', risk: remoteRisk(annotations), tags: ['mcp', 'host', `mcp:${server}`] },
      annotations,
    ),
    inputSchema,
    outputSchema: remote.outputSchema as JsonSchema | undefined,
    selfGated: false,
    runPolicy: undefined,
    validate(args) {
      const value = args ?? {};
      if (typeof value !== 'object' || Array.isArray(value)) {
        return failure('INVALID_ARGUMENT', 'Invalid arguments: the arguments of an MCP tool must be a JSON object.', {
          data: { fields: ['(arguments)'] },
        });
      }
      if (validator) {
        const checked = validateWith(validator, value);
        if (!checked.ok) return checked;
      }
      // The remote server gets exactly what was given, not a locally re-shaped copy.
      return { ok: true, value: value as Record<string, unknown> };
    },
    run: (args, ctx) => call(remote.name, args, ctx),
  };
}
