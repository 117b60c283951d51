/**
 * What memory_recall_macro ranks: the defined shortcuts, the tools of enabled skills (a skill
 * without tools as its prompt), and tool pairs agents repeated (the shortcut suggester's mining of
 * the traces), each with the call that uses it. Composed here because it spans three families.
 */
import { publishedName } from '../core/published-name';
import type { ToolRegistry } from '../core/registry';
import type { TraceSpan } from '../core/trace-span';
import type { MacroCandidate } from '../memory';
import { type ShortcutDefinition, type ShortcutStore, suggestShortcuts } from '../orchestration';
import { SKILL_URI_SCHEME, type SkillCatalog } from '../skills';

function toolWords(registry: ToolRegistry, ids: readonly string[]): string {
  return ids.map((id) => `${id} ${registry.get(id)?.description ?? ''}`).join(' ');
}

function exampleArgs(def: ShortcutDefinition): Record<string, unknown> {
  return Object.fromEntries(def.params.map((p) => [p.name, `<${p.type}: ${p.description}>`]));
}

export function macroCandidates(deps: {
  registry: ToolRegistry;
  shortcuts: ShortcutStore;
  skills: SkillCatalog;
  traceSpans: () => readonly TraceSpan[];
}): MacroCandidate[] {
  const { registry } = deps;
  const defined = deps.shortcuts.list();
  const out: MacroCandidate[] = defined.map((def) => ({
    kind: 'shortcut',
    id: def.id,
    title: def.id,
    description: def.description,
    text: toolWords(
      registry,
      def.steps.map((s) => s.tool),
    ),
    call: { tool: publishedName(def.id), args: exampleArgs(def) },
    steps: def.steps.map((s) => s.tool),
  }));
  for (const skill of deps.skills.list()) {
    if (!skill.enabled || skill.problem) continue;
    const tools = skill.tools.filter((t) => t.state === 'registered');
    if (tools.length === 0) {
      out.push({
        kind: 'skill',
        id: `skill:${skill.name}`,
        title: skill.name,
        description: skill.description,
        text: skill.body.slice(0, 4000),
        call: { prompt: skill.name, resource: `${SKILL_URI_SCHEME}${skill.name}/SKILL.md` },
      });
    }
    for (const t of tools) {
      out.push({
        kind: 'skill',
        id: t.id,
        title: `${skill.name}: ${t.name}`,
        description: t.description,
        text: `${skill.description} ${skill.body.slice(0, 4000)}`,
        call: { tool: publishedName(t.id) },
      });
    }
  }
  for (const s of suggestShortcuts(deps.traceSpans(), { defined, limit: 50 })) {
    out.push({
      kind: 'sequence',
      id: s.draft.id,
      title: s.tools.join(' → '),
      description: s.draft.description,
      text: toolWords(registry, s.tools),
      call: { tool: 'shortcut_define', args: s.draft as unknown as Record<string, unknown> },
      steps: s.tools,
      seen: s.count,
    });
  }
  return out;
}
