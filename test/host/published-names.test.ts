/**
 * Rule: every tool name a client sees matches `^[a-zA-Z0-9_-]{1,64}$`, the pattern Claude Desktop
 * and claude.ai check before they accept a server's tools at all. Dotted seed ids (a defined
 * shortcut, a connected MCP server's tools) are published with underscores, long ones shortened
 * with a stable suffix; calls by either name reach the same tool, and traces record the seed id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import {
  PUBLISHED_NAME_PATTERN,
  PublishedNameCollisionError,
  ToolRegistry,
  defineTool,
  publishedName,
  success,
} from '../../tools/core';
import { HTTP_API_KEY, startMcpHttpServer } from '../mcp-client/http-server';
import { type TestHost, connectClient, startTestHost, textOf } from './harness';

describe('published names', () => {
  it('keep ids that already match, and turn dots and other characters into underscores', () => {
    expect(publishedName('app_launch')).toBe('app_launch');
    expect(publishedName('shortcut.open_wifi')).toBe('shortcut_open_wifi');
    expect(publishedName('terminal.ubuntu.ensure')).toBe('terminal_ubuntu_ensure');
    expect(publishedName('skill.pdf tools.fill')).toBe('skill_pdf_tools_fill');
  });

  it('shorten a long id to 64 characters with a suffix that depends on the whole id', () => {
    const long = `mcp.${'a'.repeat(40)}.${'b'.repeat(40)}`;
    const name = publishedName(long);
    expect(name).toMatch(PUBLISHED_NAME_PATTERN);
    expect(name).toHaveLength(64);
    expect(publishedName(long)).toBe(name);
    expect(publishedName(`${long}x`)).not.toBe(name);
  });

  it("refuse at registration a tool whose published name is another tool's", () => {
    const registry = new ToolRegistry();
    const tool = (id: string) =>
      defineTool({
        id,
        description: 'x',
        input: z.object({}),
        metadata: { category: 'utility', risk: 'LOW' },
        run: () => success('x'),
      });
    registry.register(tool('shortcut.open_wifi'));
    expect(() => registry.register(tool('shortcut_open_wifi'))).toThrow(PublishedNameCollisionError);
    expect(() => registry.registerAll([tool('a.b'), tool('a_b')])).toThrow(/published as 'a_b'/);
    expect(registry.get('shortcut_open_wifi')?.id).toBe('shortcut.open_wifi');
    registry.unregister('shortcut.open_wifi');
    expect(registry.get('shortcut_open_wifi')).toBeUndefined();
    expect(() => registry.register(tool('shortcut_open_wifi'))).not.toThrow();
  });
});

describe('the whole catalog over MCP, with a shortcut defined and a remote MCP server connected', () => {
  let t: TestHost;
  let client: Client;
  let remote: Awaited<ReturnType<typeof startMcpHttpServer>>;

  beforeAll(async () => {
    t = await startTestHost();
    remote = await startMcpHttpServer();
    client = await connectClient(t.host);
    const defined = await client.callTool({
      name: 'shortcut_define',
      arguments: {
        id: 'shortcut.compare_versions',
        description: 'Compare two fixed versions',
        steps: [{ tool: 'version_compare', args: { operation: 'compare', a: '1.0.0', b: '2.0.0' } }],
      },
    });
    expect(defined.isError, textOf(defined)).toBeFalsy();
    const connecting = client.callTool({
      name: 'mcp_connect',
      arguments: { name: 'fixture', url: remote.url, headers: { 'x-api-key': HTTP_API_KEY } },
    });
    // Connecting may need a person's approval; approve whatever waits, as the person would.
    const approve = setInterval(() => {
      for (const item of t.host.approvals.pending())
        void t.host.api.decideApproval({ approvalId: item.approvalId, decision: 'approve_once' });
    }, 50);
    const connected = await connecting.finally(() => clearInterval(approve));
    expect(connected.isError, textOf(connected)).toBeFalsy();
  });

  afterAll(async () => {
    await client?.close();
    await remote?.close();
    await t?.dispose();
  });

  it('publishes only names every MCP client accepts, the dotted ids among them', async () => {
    const { tools } = await client.listTools();
    const bad = tools.map((tool) => tool.name).filter((name) => !PUBLISHED_NAME_PATTERN.test(name));
    expect(bad).toEqual([]);
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('shortcut_compare_versions');
    expect(names).toContain('mcp_fixture_greet');
    expect(new Set(names).size).toBe(names.length);
    const greet = tools.find((tool) => tool.name === 'mcp_fixture_greet');
    expect(greet?._meta?.['toolgate/id']).toBe('mcp.fixture.greet');
  });

  it('answers a call by the published name and by the seed id alike, and traces the seed id', async () => {
    const byName = await client.callTool({ name: 'mcp_fixture_greet', arguments: { name: 'Ada' } });
    const byId = await client.callTool({ name: 'mcp.fixture.greet', arguments: { name: 'Ada' } });
    expect(textOf(byName)).toContain('hello Ada');
    expect(textOf(byId)).toContain('hello Ada');
    const shortcut = await client.callTool({ name: 'shortcut_compare_versions', arguments: {} });
    expect(shortcut.isError, textOf(shortcut)).toBeFalsy();
    const callId = (byName._meta as Record<string, string>)['toolgate/callId'];
    const spans = t.host.pipeline.trace?.spans().filter((s) => s.callId === callId) ?? [];
    expect(spans.map((s) => s.toolId)).toEqual(['mcp.fixture.greet']);
  });
});
