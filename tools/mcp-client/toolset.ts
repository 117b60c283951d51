/** The MCP client family's toolset: mcp_connect, mcp_list, mcp_call and every connected server's tools. */
import { defineToolset } from '../core/toolset';

export const MCP_CLIENT_TOOLSET = defineToolset('mcp-client', 'Connect to other MCP servers and call their tools.');
