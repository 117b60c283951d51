/**
 * ToolMetadata (docs/architecture.md#metadata-and-annotations): one of 16 categories, a risk level,
 * tags. A built-in tool declares them next to its schema; a tool Toolgate did not write may declare
 * less, and the rest is inferred from its id by the seed's rules: the family its prefix names,
 * and a risk from the verbs in it. A declaration always wins.
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
  /**
   * What the tool did not declare and was inferred: empty for every built-in tool (each declares
   * its category, risk and hints next to its schema); inference is for tools Toolgate did not
   * write (a remote MCP server's, a skill, a shortcut).
   */
  inferred: readonly string[];
}

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint', 'sensitiveAction'] as const;

export interface ToolMetadataDeclaration {
  category?: ToolCategory;
  risk?: RiskLevel;
  tags?: string[];
}

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

/** The family an id's prefix names, or undefined for an id of no known family. */
export function knownCategory(id: string): ToolCategory | undefined {
  for (const [prefix, category] of PREFIX_CATEGORY) if (id.startsWith(prefix)) return category;
  return undefined;
}

export function inferCategory(id: string): ToolCategory {
  return knownCategory(id) ?? 'utility';
}

/** Verbs in an id that change or destroy state, from worst to mildest (the seed's rules). */
const HIGH_RISK_VERBS = 'uninstall|delete|remove|rm|format|wipe|reset|force_stop|write_file|kill|execute|install';
const MEDIUM_RISK_VERBS =
  'write|edit|set|put|copy|move|create|launch|tap|swipe|input|click|select|toggle|upload|download|send|post|' +
  'memorize|forget|connect|call|run|define|clear|navigate|request|control';
const HIGH_RISK = new RegExp(`(^|[_.])(${HIGH_RISK_VERBS})([_.]|$)|^shell_execute$|^app_install$`);
const MEDIUM_RISK = new RegExp(`(^|[_.])(${MEDIUM_RISK_VERBS})([_.]|$)`);

export function inferRisk(id: string): RiskLevel {
  if (HIGH_RISK.test(id)) return 'HIGH';
  if (MEDIUM_RISK.test(id)) return 'MEDIUM';
  return 'LOW';
}

export function inferTags(category: ToolCategory): string[] {
  const tags = new Set<string>([category]);
  if (['apps', 'system', 'ui', 'shell'].includes(category)) tags.add('device');
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
  const tags = declared.tags ?? inferTags(category);
  const inferred: string[] = [];
  if (declared.category === undefined) inferred.push('category');
  if (declared.risk === undefined) inferred.push('risk');
  for (const hint of HINTS) if (annotations[hint] === undefined) inferred.push(hint);
  return {
    category,
    risk,
    tags,
    annotations: inferAnnotations(id, risk, annotations, knownCategory(id) !== undefined),
    inferred,
  };
}
