/**
 * What the person sees and chooses of toolsets: each with its tools, its bytes in a tools/list
 * answer and the clients that have it (the Tools page), and the check of the names a person gives
 * a client (the Overview page), which only names toolsets that exist.
 */
import type { ToolsetSummary } from '../../../shared/contract';
import type { ToolRegistry } from '../../core/registry';
import { uniqueNames } from '../../core/toolset';
import { toolsetBytes } from './listing-bytes';
import { DEFAULT_PROFILE, TOOLSETS_TOOLSET } from './profile';

export function toolsetSummaries(
  registry: ToolRegistry,
  clients: ReadonlyArray<{ name: string; toolsets: readonly string[] }>,
): ToolsetSummary[] {
  return registry.toolsets().map((t) => {
    const alwaysOn = t.name === TOOLSETS_TOOLSET.name;
    return {
      name: t.name,
      summary: t.summary,
      toolIds: registry.toolsOf(t.name).map((tool) => tool.id),
      bytes: toolsetBytes(registry, t.name),
      alwaysOn,
      inDefaultProfile: alwaysOn || DEFAULT_PROFILE.includes(t.name),
      clients: clients.filter((c) => alwaysOn || c.toolsets.includes(t.name)).map((c) => c.name),
    };
  });
}

export type CheckedToolsets = { ok: true; toolsets: string[] } | { ok: false; message: string };

/** The names a person chose, without the always-on one; a name no family declared is refused. */
export function checkToolsetNames(registry: ToolRegistry, names: readonly string[]): CheckedToolsets {
  const unknown = names.filter((n) => !registry.toolset(n));
  if (unknown.length > 0)
    return {
      ok: false,
      message: `No toolset named ${unknown.map((n) => `'${n}'`).join(', ')}; the toolsets are ${registry
        .toolsets()
        .map((t) => t.name)
        .join(', ')}.`,
    };
  return { ok: true, toolsets: uniqueNames(names.filter((n) => n !== TOOLSETS_TOOLSET.name)) };
}
