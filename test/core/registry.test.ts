/**
 * Rule: tool ids are unique (REJECT refuses a duplicate, REPLACE is the default); an unknown id
 * gets at most three near names, never the list of all ids.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { DuplicateToolError, ToolRegistry } from '../../tools/core/registry';
import { suggestToolIds } from '../../tools/core/suggester';
import { defineTool } from '../../tools/core/tool';

const tool = (id: string, text = id) =>
  defineTool({ id, description: `The ${id} tool.`, input: z.object({}), run: () => text });

const CATALOG = [
  'app_list',
  'app_launch',
  'app_install',
  'app_uninstall',
  'app_info',
  'ui_tap',
  'ui_swipe',
  'ui_dump',
  'read_file',
  'write_file',
  'list_files',
  'delete_file',
  'browser_click',
  'browser_snapshot',
  'web_fetch',
  'calculate',
];

describe('ToolRegistry', () => {
  it('refuses a duplicate id under REJECT and keeps the first', () => {
    const r = new ToolRegistry();
    const first = tool('app_list', 'first');
    r.register(first);
    expect(() => r.register(tool('app_list', 'second'), 'REJECT')).toThrow(DuplicateToolError);
    expect(() => r.register(tool('app_list', 'second'), 'REJECT')).toThrow(
      "A tool with id 'app_list' is already registered",
    );
    expect(r.get('app_list')).toBe(first);
  });

  it('replaces by default', () => {
    const r = new ToolRegistry();
    r.register(tool('app_list', 'first'));
    const second = tool('app_list', 'second');
    r.register(second);
    expect(r.get('app_list')).toBe(second);
    expect(r.size).toBe(1);
  });

  it('refuses a family containing a duplicate before adding any of it', () => {
    const r = new ToolRegistry();
    expect(() => r.registerAll([tool('a_one'), tool('a_two'), tool('a_one')])).toThrow(DuplicateToolError);
    expect(r.size).toBe(0);
  });

  it('unregisters through the disposable it returned, and only its own tool', () => {
    const r = new ToolRegistry();
    const handle = r.register(tool('x_tool', 'first'));
    const replacement = tool('x_tool', 'second');
    r.register(replacement);
    handle.dispose();
    expect(r.get('x_tool')).toBe(replacement);
    const h2 = r.register(tool('y_tool'));
    h2.dispose();
    expect(r.has('y_tool')).toBe(false);
  });

  it('announces changes to listeners', () => {
    const r = new ToolRegistry();
    const seen: string[] = [];
    const sub = r.onChange((c) => seen.push(`${c.kind}:${c.toolId}`));
    r.register(tool('a_x'));
    r.register(tool('a_x'));
    r.unregister('a_x');
    sub.dispose();
    r.register(tool('b_x'));
    expect(seen).toEqual(['added:a_x', 'replaced:a_x', 'removed:a_x']);
  });

  it('lists by category', () => {
    const r = new ToolRegistry();
    r.registerAll(CATALOG.map((id) => tool(id)));
    const groups = r.byCategory();
    expect(groups.get('apps')?.map((t) => t.id)).toEqual([
      'app_info',
      'app_install',
      'app_launch',
      'app_list',
      'app_uninstall',
    ]);
    expect(groups.get('browser')?.map((t) => t.id)).toEqual(['browser_click', 'browser_snapshot']);
  });

  it('answers an unknown id with near names', () => {
    const r = new ToolRegistry();
    r.registerAll(CATALOG.map((id) => tool(id)));
    const lookup = r.lookup('app_lst');
    expect(lookup).toEqual({ found: false, suggestions: ['app_list'] });
  });

  it('answers an unknown id with no near name with an empty list, not the catalog', () => {
    const r = new ToolRegistry();
    r.registerAll(CATALOG.map((id) => tool(id)));
    expect(r.lookup('quantum_teleport')).toEqual({ found: false, suggestions: [] });
  });
});

describe('suggestions', () => {
  it('gives at most three, closest first', () => {
    const s = suggestToolIds('app_in', CATALOG);
    expect(s.length).toBeLessThanOrEqual(3);
    expect(s[0]).toBe('app_info');
  });

  it('finds a name that contains the guess', () => {
    expect(suggestToolIds('snapshot', CATALOG)).toEqual(['browser_snapshot']);
  });

  it('is case-insensitive and ignores blank input', () => {
    expect(suggestToolIds('UI_TAP', CATALOG)[0]).toBe('ui_tap');
    expect(suggestToolIds('   ', CATALOG)).toEqual([]);
  });
});
