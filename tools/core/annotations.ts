/**
 * ToolAnnotations (docs/architecture.md#metadata-and-annotations): the four MCP hints plus
 * sensitiveAction. `retrySafe` is derived: replaying a call is safe only when it is read-only or
 * idempotent (replaying a destructive call that already succeeded loses data). Inferred from the id
 * and risk; explicit declaration wins.
 */
import type { RiskLevel } from './risk';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
  sensitiveAction: boolean;
}

/** What the MCP specification assumes when a server declares nothing. */
export const MCP_DEFAULT_ANNOTATIONS: Readonly<ToolAnnotations> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
  sensitiveAction: false,
};

export function retrySafe(a: Pick<ToolAnnotations, 'readOnlyHint' | 'idempotentHint'>): boolean {
  return a.readOnlyHint || a.idempotentHint;
}

const READ_ONLY = new Set([
  'read_file',
  'list_files',
  'glob_files',
  'search_files',
  'recall',
  'app_list',
  'app_info',
  'get_device_info',
  'get_time',
  'logcat',
  'ui_dump',
  'screenshot',
  'get_location',
  'notification_read',
  'calculate',
  'text_transform',
  'web_fetch',
  'web_search',
  'mcp_list',
  'shortcut_list',
  'wait',
  'json_transform',
  'version_compare',
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
  'browser_screenshot',
  'browser_snapshot',
  'browser_download_list',
  'browser_context_summary',
  'browser_network_log',
  'browser_show',
]);

/** Changes state, but doing it twice leaves the same state as doing it once. */
const IDEMPOTENT = new Set([
  'write_file',
  'app_force_stop',
  'app_uninstall',
  'delete_file',
  'get_set_settings',
  'forget',
  'memorize',
  'app_launch',
  'browser_navigate',
  'browser_select',
  'browser_scroll',
  'browser_date_input',
  'mcp_connect',
  'clipboard',
  'browser_debug_dump',
]);

const DESTRUCTIVE = new Set([
  'shell_execute',
  'app_uninstall',
  'app_install',
  'app_force_stop',
  'delete_file',
  'write_file',
  'edit_file',
  'copy_move_file',
  'forget',
  'get_set_settings',
  'github_write_file',
  'skill_uninstall',
  'download_file',
]);

/** Talks to something outside the host's own state (network, a device, a browser, another server). */
const CLOSED_WORLD =
  /^(read_file|write_file|edit_file|list_files|glob_files|search_files|copy_move_file|delete_file|memorize|recall|forget|calculate|text_transform|wait|json_transform|version_compare|shortcut_|tool_batch_run|regex_|text_diff|json_path|xml_extract|csv_query|base_convert|unit_convert|duration_convert|string_distance|random_generate|uuid_generate|file_hash|datetime|cron_next)/;

const SENSITIVE = new Set([
  'clipboard',
  'get_location',
  'notification_read',
  'screenshot',
  'browser_screenshot',
  'recall',
  'http_request',
  'shell_execute',
]);

/**
 * Annotations for a tool. For an id of a known family the hints follow the tables above and the
 * risk (HIGH is destructive); for an id nobody knows, the MCP defaults apply, since assuming a
 * stranger is harmless is the dangerous direction. Declared hints always win.
 */
export function inferAnnotations(
  id: string,
  risk: RiskLevel,
  declared: Partial<ToolAnnotations> = {},
  knownFamily = true,
): ToolAnnotations {
  const readOnly = READ_ONLY.has(id);
  const inferred: ToolAnnotations = knownFamily
    ? {
        readOnlyHint: readOnly,
        destructiveHint: !readOnly && (DESTRUCTIVE.has(id) || risk === 'HIGH'),
        idempotentHint: readOnly || IDEMPOTENT.has(id),
        openWorldHint: !CLOSED_WORLD.test(id),
        sensitiveAction: SENSITIVE.has(id) || risk === 'HIGH',
      }
    : { ...MCP_DEFAULT_ANNOTATIONS, sensitiveAction: risk === 'HIGH' };
  return { ...inferred, ...declared };
}
