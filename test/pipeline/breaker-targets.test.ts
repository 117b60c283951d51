/**
 * Rule: tools that have targets keep a breaker per target, so a dead target does not pause the
 * tool for the others: the network tools per destination origin (web_search per configured
 * provider), mcp_call and mcp_connect per server, the browser tools per browser (browser_navigate
 * per browser and destination origin). The key names the target by its digest only.
 */
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../tools/core';
import type { Tool } from '../../tools/core/tool';
import { breakerKey } from '../../tools/core/pipeline';
import { BrowserManager, browserTools } from '../../tools/browser';
import { mcpClientTools } from '../../tools/mcp-client';
import { networkTools } from '../../tools/network';

/** The breaker key the pipeline gives a call (the scope of the validated arguments, digested). */
function keyOf(tool: Tool, args: Record<string, unknown>): string {
  const validated = tool.validate(args);
  if (!validated.ok) throw new Error(`${tool.id}: ${validated.error.message}`);
  return breakerKey(tool.id, tool.breakerScope?.(validated.value));
}

function tools(endpoint: () => string | undefined = () => 'https://search.example/api?key=k') {
  const registry = new ToolRegistry();
  registry.registerAll(networkTools({ workspaceRoot: '/nowhere', webSearchEndpoint: endpoint }));
  registry.registerAll(mcpClientTools({ registry }).tools);
  const byId = (id: string) => {
    const found = registry.lookup(id);
    if (!found.found) throw new Error(id);
    return found.tool;
  };
  return byId;
}

describe('breakers per target', () => {
  it('keeps the network tools per destination origin, whatever the path, query or credentials', () => {
    const tool = tools();
    for (const id of ['http_request', 'web_fetch']) {
      const a = keyOf(tool(id), { url: 'https://one.example/a/secret-path?token=x' });
      expect(keyOf(tool(id), { url: 'https://user:pw@one.example/other' })).toBe(a);
      expect(keyOf(tool(id), { url: 'https://two.example/a/secret-path' })).not.toBe(a);
      expect(keyOf(tool(id), { url: 'http://one.example/a' })).not.toBe(a);
      expect(a).toMatch(new RegExp(`^${id}@[0-9a-f]{8}$`));
    }
    const download = tool('download_file');
    expect(keyOf(download, { url: 'https://one.example/f.zip', path: 'a.zip' })).toBe(
      keyOf(download, { url: 'https://one.example/g.zip', path: 'b.zip' }),
    );
  });

  it('keeps web_search per configured provider, not per query', () => {
    let endpoint = 'https://search-one.example/api';
    const search = tools(() => endpoint)('web_search');
    const first = keyOf(search, { query: 'the first question' });
    expect(keyOf(search, { query: 'another question' })).toBe(first);
    endpoint = 'https://search-two.example/api';
    expect(keyOf(search, { query: 'the first question' })).not.toBe(first);
  });

  it('keeps mcp_call and mcp_connect per server', () => {
    const tool = tools();
    const call = tool('mcp_call');
    expect(keyOf(call, { server: 'files', tool: 'read' })).toBe(keyOf(call, { server: 'files', tool: 'write' }));
    expect(keyOf(call, { server: 'files', tool: 'read' })).not.toBe(keyOf(call, { server: 'mail', tool: 'read' }));
    const connect = tool('mcp_connect');
    expect(keyOf(connect, { name: 'files', url: 'http://127.0.0.1:1/mcp' })).not.toBe(
      keyOf(connect, { name: 'mail', url: 'http://127.0.0.1:1/mcp' }),
    );
  });

  it('keeps the browser tools per browser, and navigation per browser and destination origin', () => {
    const family = (manager: BrowserManager) => {
      const all = browserTools({ manager, workspaceRoot: '/nowhere' });
      return (id: string) => all.find((t) => t.id === id) as Tool;
    };
    const launched = family(new BrowserManager({ headless: true }));
    const remote = family(new BrowserManager({ cdpEndpoint: 'http://127.0.0.1:9222' }));
    expect(keyOf(launched('browser_click'), { ref: 'e1' })).toBe(keyOf(launched('browser_click'), { ref: 'e7' }));
    expect(keyOf(launched('browser_click'), { ref: 'e1' })).not.toBe(keyOf(remote('browser_click'), { ref: 'e1' }));
    const nav = launched('browser_navigate');
    expect(keyOf(nav, { url: 'https://one.example/a' })).toBe(keyOf(nav, { url: 'https://one.example/b' }));
    expect(keyOf(nav, { url: 'https://one.example/a' })).not.toBe(keyOf(nav, { url: 'https://two.example/a' }));
    expect(keyOf(nav, { url: 'https://one.example/a' })).not.toBe(
      keyOf(remote('browser_navigate'), { url: 'https://one.example/a' }),
    );
  });
});
