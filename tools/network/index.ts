/**
 * The network family (host side): web_fetch, web_search, http_request, download_file.
 * A host wires it as `registry.registerToolset(NETWORK_TOOLSET, networkTools({ workspaceRoot, webSearchEndpoint }))`.
 */
import type { Tool } from '../core/tool';
import { defineToolset } from '../core/toolset';
import { downloadFileTool } from './download-file';
import { httpRequestTool } from './http-request';
import { type NetworkToolsOptions, resolveNetworkSettings } from './options';
import { webFetchTool } from './web-fetch';
import { webSearchTool } from './web-search';

export const NETWORK_TOOLSET = defineToolset(
  'network',
  'Fetch web pages, search the web, send HTTP requests, download files.',
);

export function networkTools(options: NetworkToolsOptions): Tool[] {
  const settings = resolveNetworkSettings(options);
  return [webFetchTool(settings), webSearchTool(settings), httpRequestTool(settings), downloadFileTool(settings)];
}

export type { FetchLike } from './http-fetch';
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_DOWNLOAD_BYTES, type NetworkToolsOptions } from './options';
export { isSecretHeader } from './secrets';
export { SEARCH_NOT_CONFIGURED_HINT } from './web-search';
