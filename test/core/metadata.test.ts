/**
 * Rule: every tool has metadata (16 categories, LOW/MEDIUM/HIGH risk, tags) and MCP annotations. A
 * built-in tool declares them next to its schema (test/core/built-in-declarations.test.ts); for a
 * tool Toolgate did not write, what it leaves out is inferred from its id by the seed's rules (the
 * family its prefix names, the risk of the verbs in it) and by no table of ids. An explicit
 * declaration always wins; retrySafe = readOnly || idempotent; an id of no known family gets the
 * MCP defaults.
 */
import { describe, expect, it } from 'vitest';
import { MCP_DEFAULT_ANNOTATIONS, inferAnnotations, retrySafe } from '../../tools/core/annotations';
import { TOOL_CATEGORIES, inferCategory, inferRisk, resolveMetadata } from '../../tools/core/metadata';

describe('ToolMetadata inference', () => {
  it('has sixteen categories', () => {
    expect(TOOL_CATEGORIES).toHaveLength(16);
  });

  it.each([
    ['shortcut.open_notes', 'orchestration'],
    ['shortcut_suggest', 'orchestration'],
    ['terminal.ubuntu.status', 'terminal'],
    ['browser_tab_close', 'browser'],
    ['github_list_repos', 'github'],
    ['skill_search', 'skills'],
    ['mcp_ping', 'mcp'],
    ['app_clear_data', 'apps'],
    ['ui_long_press', 'ui'],
    ['memory_search_nodes', 'cognitive_memory'],
  ])('puts %s in the family its prefix names (%s)', (id, category) => {
    expect(inferCategory(id)).toBe(category);
  });

  it('knows no tool by its whole id: a prefix-less id lands in utility whatever it is called', () => {
    for (const id of ['read_file', 'calculate', 'shell_execute', 'web_fetch'])
      expect(inferCategory(id)).toBe('utility');
  });

  it('rates ids by their verbs: removing and installing HIGH, changing MEDIUM, reading LOW', () => {
    for (const id of ['skill_uninstall', 'github_write_file', 'terminal.kill', 'plugin_install', 'x_delete'])
      expect([id, inferRisk(id)]).toEqual([id, 'HIGH']);
    for (const id of ['github_create_issue', 'browser_tab_select', 'skill_run', 'notes_edit'])
      expect([id, inferRisk(id)]).toEqual([id, 'MEDIUM']);
    for (const id of ['skill_list', 'github_search_code', 'memory_recent_episodes'])
      expect([id, inferRisk(id)]).toEqual([id, 'LOW']);
  });

  it('lets an explicit declaration win over inference, and says what was inferred', () => {
    const declared = resolveMetadata(
      'app_list',
      { category: 'shell', risk: 'HIGH', tags: ['x'] },
      {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
        sensitiveAction: false,
      },
    );
    expect(declared).toMatchObject({ category: 'shell', risk: 'HIGH', tags: ['x'], inferred: [] });
    expect(declared.annotations.readOnlyHint).toBe(false);
    expect(resolveMetadata('skill_list', { category: 'skills' }, { readOnlyHint: true }).inferred).toEqual([
      'risk',
      'destructiveHint',
      'idempotentHint',
      'openWorldHint',
      'sensitiveAction',
    ]);
  });

  it('tags device and host tools by category', () => {
    expect(resolveMetadata('ui_long_press').tags).toContain('device');
    expect(resolveMetadata('mcp_ping').tags).toContain('host');
    expect(resolveMetadata('browser_tab_close').tags).toContain('web');
  });
});

describe('ToolAnnotations inference', () => {
  it('derives retrySafe from readOnly or idempotent', () => {
    expect(retrySafe({ readOnlyHint: true, idempotentHint: false })).toBe(true);
    expect(retrySafe({ readOnlyHint: false, idempotentHint: true })).toBe(true);
    expect(retrySafe({ readOnlyHint: false, idempotentHint: false })).toBe(false);
  });

  it('assumes nothing read-only or idempotent for a known family, and HIGH risk destructive and sensitive', () => {
    expect(resolveMetadata('skill_uninstall').annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
      sensitiveAction: true,
    });
    expect(resolveMetadata('browser_tab_select').annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    for (const id of ['github_create_issue', 'skill_run', 'shortcut.open_notes'])
      expect([id, retrySafe(resolveMetadata(id).annotations)]).toEqual([id, false]);
  });

  it('gives an id of no known family the MCP defaults, whatever it is named', () => {
    expect(inferAnnotations('frobnicate', 'LOW', {}, false)).toEqual(MCP_DEFAULT_ANNOTATIONS);
    expect(resolveMetadata('frobnicate').annotations).toEqual(MCP_DEFAULT_ANNOTATIONS);
    expect(resolveMetadata('read_file').annotations).toEqual(MCP_DEFAULT_ANNOTATIONS);
    expect(MCP_DEFAULT_ANNOTATIONS).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it('lets declared hints override inferred ones', () => {
    expect(resolveMetadata('frobnicate', {}, { readOnlyHint: true, destructiveHint: false }).annotations).toMatchObject(
      { readOnlyHint: true, destructiveHint: false },
    );
  });
});
