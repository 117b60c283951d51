/**
 * Rule: every tool has metadata (16 categories, LOW/MEDIUM/HIGH risk, tags) and MCP annotations,
 * inferred from its id for every family of the catalog; an explicit declaration always wins;
 * retrySafe = readOnly || idempotent; an id of no known family gets the MCP defaults.
 */
import { describe, expect, it } from 'vitest';
import { MCP_DEFAULT_ANNOTATIONS, inferAnnotations, retrySafe } from '../../tools/core/annotations';
import { TOOL_CATEGORIES, inferCategory, inferRisk, resolveMetadata } from '../../tools/core/metadata';

/** The catalog of docs/architecture.md#tool-families, with the category each id must land in. */
const CATALOG: Record<string, string[]> = {
  shell: ['shell_execute'],
  apps: ['app_list', 'app_launch', 'app_install', 'app_uninstall', 'app_force_stop', 'app_info'],
  system: ['get_device_info', 'get_set_settings', 'control_media', 'clipboard', 'get_time', 'logcat'],
  ui: ['ui_tap', 'ui_swipe', 'ui_dump', 'screenshot', 'input_text'],
  utility: ['calculate', 'text_transform', 'get_location', 'notification_read'],
  files: [
    'read_file',
    'write_file',
    'edit_file',
    'list_files',
    'glob_files',
    'search_files',
    'copy_move_file',
    'delete_file',
  ],
  network: ['web_fetch', 'web_search', 'http_request', 'download_file'],
  memory: ['memorize', 'recall', 'forget'],
  structured: [
    'regex_extract',
    'regex_replace',
    'text_diff',
    'json_path',
    'xml_extract',
    'csv_query',
    'base_convert',
    'unit_convert',
    'duration_convert',
    'string_distance',
    'random_generate',
    'uuid_generate',
    'file_hash',
    'datetime',
    'cron_next',
  ],
  orchestration: [
    'wait',
    'json_transform',
    'version_compare',
    'tool_batch_run',
    'shortcut_define',
    'shortcut_list',
    'shortcut_run',
    'shortcut.open_notes',
  ],
  mcp: ['mcp_connect', 'mcp_list', 'mcp_call'],
  browser: [
    'browser_navigate',
    'browser_click',
    'browser_input',
    'browser_scroll',
    'browser_select',
    'browser_screenshot',
    'browser_snapshot',
    'browser_toggle',
    'browser_show',
    'browser_download_list',
    'browser_file_upload',
    'browser_date_input',
    'browser_context_summary',
    'browser_network_log',
    'browser_debug_dump',
  ],
  skills: ['skill_search', 'skill_install', 'skill_create', 'skill_list', 'skill_uninstall'],
  github: [
    'github_get_user',
    'github_list_repos',
    'github_read_file',
    'github_write_file',
    'github_create_issue',
    'github_list_issues',
    'github_search_code',
  ],
  terminal: ['terminal.create', 'terminal.run', 'terminal.ubuntu.status'],
  cognitive_memory: ['memory_search_nodes', 'memory_recent_episodes', 'memory_recall_macro'],
};

describe('ToolMetadata inference', () => {
  it('has sixteen categories', () => {
    expect(TOOL_CATEGORIES).toHaveLength(16);
    expect(new Set(Object.keys(CATALOG))).toEqual(new Set(TOOL_CATEGORIES));
  });

  it.each(Object.entries(CATALOG))('puts every %s id in its category', (category, ids) => {
    for (const id of ids) expect([id, inferCategory(id)]).toEqual([id, category]);
  });

  it('rates destructive device and file actions HIGH and reads LOW', () => {
    for (const id of [
      'app_uninstall',
      'app_install',
      'app_force_stop',
      'delete_file',
      'shell_execute',
      'mcp_connect',
      'skill_uninstall',
    ])
      expect([id, inferRisk(id)]).toEqual([id, 'HIGH']);
    for (const id of ['app_list', 'read_file', 'ui_dump', 'browser_snapshot', 'calculate', 'recall', 'get_time'])
      expect([id, inferRisk(id)]).toEqual([id, 'LOW']);
    for (const id of ['write_file', 'ui_tap', 'browser_click', 'get_set_settings', 'input_text'])
      expect([id, inferRisk(id)]).toEqual([id, 'MEDIUM']);
  });

  it('lets an explicit declaration win over inference', () => {
    const m = resolveMetadata('app_list', { category: 'shell', risk: 'HIGH', tags: ['x'] }, { readOnlyHint: false });
    expect(m).toMatchObject({ category: 'shell', risk: 'HIGH', tags: ['x'] });
    expect(m.annotations.readOnlyHint).toBe(false);
  });

  it('tags device and host tools', () => {
    expect(resolveMetadata('ui_tap').tags).toContain('device');
    expect(resolveMetadata('read_file').tags).toContain('host');
    expect(resolveMetadata('browser_click').tags).toContain('web');
  });
});

describe('ToolAnnotations inference', () => {
  it('derives retrySafe from readOnly or idempotent', () => {
    expect(retrySafe({ readOnlyHint: true, idempotentHint: false })).toBe(true);
    expect(retrySafe({ readOnlyHint: false, idempotentHint: true })).toBe(true);
    expect(retrySafe({ readOnlyHint: false, idempotentHint: false })).toBe(false);
  });

  it('marks reads read-only and idempotent, destructive actions destructive', () => {
    expect(resolveMetadata('read_file').annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(resolveMetadata('app_uninstall').annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      sensitiveAction: true,
    });
    expect(resolveMetadata('web_fetch').annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(resolveMetadata('ui_tap').annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
  });

  it('never lets a non-idempotent mutation be retry-safe', () => {
    for (const id of [
      'shell_execute',
      'app_install',
      'edit_file',
      'ui_tap',
      'input_text',
      'http_request',
      'download_file',
      'tool_batch_run',
    ])
      expect([id, retrySafe(resolveMetadata(id).annotations)]).toEqual([id, false]);
  });

  it('gives an id of no known family the MCP defaults', () => {
    expect(inferAnnotations('frobnicate', 'LOW', {}, false)).toEqual(MCP_DEFAULT_ANNOTATIONS);
    expect(resolveMetadata('frobnicate').annotations).toEqual(MCP_DEFAULT_ANNOTATIONS);
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
