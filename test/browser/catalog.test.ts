/**
 * Rule guarded: the browser family is exactly the 15 seed tools, each declared completely — a
 * title, browser metadata and annotations that say which tools only read (how tools are
 * described: test/host/description-style.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BROWSER_TOOL_IDS, BrowserManager, browserTools } from '../../tools/browser';
import { ToolRegistry } from '../../tools/core/registry';

const workspace = mkdtempSync(join(tmpdir(), 'toolgate-catalog-'));
const tools = browserTools({
  manager: new BrowserManager({ executablePath: '/nonexistent' }),
  workspaceRoot: workspace,
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

describe('browser tool catalog', () => {
  it('registers without a duplicate id', () => {
    expect(() => new ToolRegistry().registerAll(tools)).not.toThrow();
  });

  it('is exactly the 15 seed tools', () => {
    expect(tools.map((t) => t.id).sort()).toEqual([...BROWSER_TOOL_IDS].sort());
    expect(tools).toHaveLength(15);
  });

  it('marks the reading tools read-only and nothing destructive', () => {
    const readOnly = tools
      .filter((t) => t.metadata.annotations.readOnlyHint)
      .map((t) => t.id)
      .sort();
    expect(readOnly).toEqual([
      'browser_context_summary',
      'browser_download_list',
      'browser_network_log',
      'browser_screenshot',
      'browser_show',
      'browser_snapshot',
    ]);
    expect(tools.filter((t) => t.metadata.annotations.destructiveHint)).toEqual([]);
    for (const tool of tools) expect(tool.metadata.category, tool.id).toBe('browser');
  });

  it('rates input and upload tools MEDIUM and marks upload and screenshots sensitive', () => {
    const risk = Object.fromEntries(tools.map((t) => [t.id, t.metadata.risk]));
    expect(risk).toMatchObject({
      browser_click: 'MEDIUM',
      browser_input: 'MEDIUM',
      browser_file_upload: 'MEDIUM',
      browser_download_list: 'LOW',
      browser_snapshot: 'LOW',
    });
    const sensitive = tools
      .filter((t) => t.metadata.annotations.sensitiveAction)
      .map((t) => t.id)
      .sort();
    expect(sensitive).toEqual(['browser_file_upload', 'browser_screenshot']);
  });
});
