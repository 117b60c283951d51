/**
 * ToolMetadata (docs/architecture.md#metadata-and-annotations): one of 16 categories, a risk level,
 * tags. Inferred from the id so a tool that declares nothing still gets sane metadata; an explicit
 * declaration always wins.
 */
import { type ToolAnnotations, inferAnnotations } from './annotations';
import type { RiskLevel } from './risk';

export const TOOL_CATEGORIES = [
  'shell',
  'files',
  'network',
  'memory',
  'apps',
  'system',
  'ui',
  'utility',
  'skills',
  'mcp',
  'structured',
  'orchestration',
  'browser',
  'github',
  'terminal',
  'cognitive_memory',
] as const;
export type ToolCategory = (typeof TOOL_CATEGORIES)[number];

export { RISK_LEVELS, type RiskLevel, riskRank } from './risk';

export interface ToolMetadata {
  category: ToolCategory;
  risk: RiskLevel;
  tags: string[];
  annotations: ToolAnnotations;
}

export interface ToolMetadataDeclaration {
  category?: ToolCategory;
  risk?: RiskLevel;
  tags?: string[];
}

const EXACT_CATEGORY: Record<string, ToolCategory> = {
  shell_execute: 'shell',
  memorize: 'memory',
  recall: 'memory',
  forget: 'memory',
  get_device_info: 'system',
  get_set_settings: 'system',
  control_media: 'system',
  clipboard: 'system',
  get_time: 'system',
  logcat: 'system',
  screenshot: 'ui',
  input_text: 'ui',
  calculate: 'utility',
  text_transform: 'utility',
  get_location: 'utility',
  notification_read: 'utility',
  web_fetch: 'network',
  web_search: 'network',
  http_request: 'network',
  download_file: 'network',
  wait: 'orchestration',
  json_transform: 'orchestration',
  version_compare: 'orchestration',
  tool_batch_run: 'orchestration',
  regex_extract: 'structured',
  regex_replace: 'structured',
  text_diff: 'structured',
  json_path: 'structured',
  xml_extract: 'structured',
  csv_query: 'structured',
  base_convert: 'structured',
  unit_convert: 'structured',
  duration_convert: 'structured',
  string_distance: 'structured',
  random_generate: 'structured',
  uuid_generate: 'structured',
  file_hash: 'structured',
  datetime: 'structured',
  cron_next: 'structured',
};

const FILE_TOOLS = new Set([
  'read_file',
  'write_file',
  'edit_file',
  'list_files',
  'glob_files',
  'search_files',
  'copy_move_file',
  'delete_file',
]);

const PREFIX_CATEGORY: Array<[string, ToolCategory]> = [
  ['shortcut_', 'orchestration'],
  ['shortcut.', 'orchestration'],
  ['terminal.', 'terminal'],
  ['browser_', 'browser'],
  ['github_', 'github'],
  ['skill_', 'skills'],
  ['mcp_', 'mcp'],
  ['app_', 'apps'],
  ['ui_', 'ui'],
  ['memory_', 'cognitive_memory'],
];

/** The catalog family an id belongs to, or undefined for an id of no known family. */
export function knownCategory(id: string): ToolCategory | undefined {
  const exact = EXACT_CATEGORY[id];
  if (exact) return exact;
  if (FILE_TOOLS.has(id)) return 'files';
  for (const [prefix, category] of PREFIX_CATEGORY) if (id.startsWith(prefix)) return category;
  return undefined;
}

export function inferCategory(id: string): ToolCategory {
  return knownCategory(id) ?? 'utility';
}

/** Verbs in an id that change or destroy state, from worst to mildest. */
const HIGH_RISK =
  /(^|[_.])(uninstall|delete|remove|rm|format|wipe|reset|force_stop|write_file|kill|execute|install)([_.]|$)|^shell_execute$|^app_install$/;
const MEDIUM_RISK =
  /(^|[_.])(write|edit|set|put|copy|move|create|launch|tap|swipe|input|click|select|toggle|upload|download|send|post|memorize|forget|connect|call|run|define|clear|navigate|request|control)([_.]|$)/;

const RISK_OVERRIDES: Record<string, RiskLevel> = {
  shell_execute: 'HIGH',
  app_uninstall: 'HIGH',
  app_install: 'HIGH',
  app_force_stop: 'HIGH',
  delete_file: 'HIGH',
  write_file: 'MEDIUM',
  get_set_settings: 'MEDIUM',
  github_write_file: 'HIGH',
  mcp_connect: 'HIGH',
  skill_uninstall: 'HIGH',
  control_media: 'MEDIUM',
  clipboard: 'MEDIUM',
  http_request: 'MEDIUM',
  download_file: 'MEDIUM',
  tool_batch_run: 'MEDIUM',
  shortcut_run: 'MEDIUM',
};

export function inferRisk(id: string): RiskLevel {
  const override = RISK_OVERRIDES[id];
  if (override) return override;
  if (HIGH_RISK.test(id)) return 'HIGH';
  if (MEDIUM_RISK.test(id)) return 'MEDIUM';
  return 'LOW';
}

export function inferTags(id: string, category: ToolCategory): string[] {
  const tags = new Set<string>([category]);
  if (['apps', 'system', 'ui', 'shell'].includes(category) || ['get_location', 'notification_read'].includes(id))
    tags.add('device');
  if (category === 'browser') tags.add('web');
  if (['files', 'memory', 'structured', 'network', 'orchestration', 'mcp'].includes(category)) tags.add('host');
  return [...tags];
}

/** Metadata for a tool: declared fields win, the rest is inferred from the id. */
export function resolveMetadata(
  id: string,
  declared: ToolMetadataDeclaration = {},
  annotations: Partial<ToolAnnotations> = {},
): ToolMetadata {
  const category = declared.category ?? inferCategory(id);
  const risk = declared.risk ?? inferRisk(id);
  const tags = declared.tags ?? inferTags(id, category);
  return {
    category,
    risk,
    tags,
    annotations: inferAnnotations(id, risk, annotations, knownCategory(id) !== undefined),
  };
}
