/**
 * prompts/list, prompts/get, resources/list and resources/read over a content provider. A name or
 * URI that names nothing is MCP's own error (invalid params for a prompt, -32002 for a resource,
 * as the specification words them), with the list to look in.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpContentProvider } from './mcp-content';

const RESOURCE_NOT_FOUND = -32002;

export function serveContent(server: Server, content: McpContentProvider): void {
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: content.prompts() }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = content.getPrompt(request.params.name, request.params.arguments ?? {});
    if (!prompt)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown prompt '${request.params.name}'; ` +
          'prompts/list names the prompts of this server (one per enabled skill).',
      );
    return prompt;
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: content.resources() }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const resource = content.readResource(request.params.uri);
    if (!resource)
      throw new McpError(
        RESOURCE_NOT_FOUND,
        `Resource not found: ${request.params.uri}; resources/list names the resources of this server.`,
        { uri: request.params.uri },
      );
    return resource;
  });
}
