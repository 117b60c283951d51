/** Searching and grouping the tool catalog. */
import type { ToolSummary } from '../../../../shared/contract';

/** Every word of the query must appear in the id, title, description, category, toolset or tags. */
export function matchesSearch(tool: ToolSummary, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = [tool.id, tool.title, tool.description, tool.category, tool.toolset ?? '', tool.tags.join(' ')]
    .join(' ')
    .toLowerCase();
  return words.every((w) => hay.includes(w));
}

export function groupByCategory(tools: readonly ToolSummary[]): Array<{ category: string; tools: ToolSummary[] }> {
  const groups = new Map<string, ToolSummary[]>();
  for (const t of tools) groups.set(t.category, [...(groups.get(t.category) ?? []), t]);
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([category, list]) => ({ category, tools: list.sort((a, b) => a.id.localeCompare(b.id)) }));
}
