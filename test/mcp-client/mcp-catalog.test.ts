/**
 * Rule: the MCP client family publishes exactly mcp_connect (HIGH risk, destructive: it starts
 * programs), mcp_list (read-only, local) and mcp_call (its nested call is the gated one); proxy
 * ids are sanitised and never collide.
 */
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../tools/core/registry';
import { assignProxyIds, mcpClientTools, remoteAnnotations } from '../../tools/mcp-client';

const { tools } = mcpClientTools({ registry: new ToolRegistry() });
const byId = new Map(tools.map((t) => [t.id, t]));

describe('MCP client catalog', () => {
  it('has exactly mcp_connect, mcp_list and mcp_call', () => {
    expect(tools.map((t) => t.id)).toEqual(['mcp_connect', 'mcp_list', 'mcp_call']);
  });

  it('marks mcp_connect HIGH risk and destructive (a person approves), mcp_list read-only, mcp_call ungated', () => {
    expect(byId.get('mcp_connect')?.metadata).toMatchObject({
      category: 'mcp',
      risk: 'HIGH',
      annotations: { destructiveHint: true, openWorldHint: true },
    });
    expect(byId.get('mcp_list')?.metadata).toMatchObject({
      risk: 'LOW',
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
    expect(byId.get('mcp_call')?.metadata).toMatchObject({ risk: 'MEDIUM', annotations: { destructiveHint: false } });
  });

  it('keeps the command and its arguments as separate fields in the schema, never one shell string', () => {
    const properties = byId.get('mcp_connect')?.inputSchema.properties as Record<string, { type?: string }>;
    expect(properties.command?.type).toBe('string');
    expect(properties.args?.type).toBe('array');
  });
});

describe('proxy ids and annotations', () => {
  it('sanitises names into snake_case and numbers the names that collide', () => {
    expect([...assignProxyIds('My-Server', ['Get-Item.v2', 'get_item_v2', 'GET ITEM v2', '***']).values()]).toEqual([
      'mcp.my_server.get_item_v2',
      'mcp.my_server.get_item_v2_2',
      'mcp.my_server.get_item_v2_3',
      'mcp.my_server.tool',
    ]);
  });

  it('uses the MCP defaults for undeclared hints and ignores destructiveHint on read-only tools', () => {
    expect(remoteAnnotations(undefined)).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(remoteAnnotations({ readOnlyHint: true })).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });
});
