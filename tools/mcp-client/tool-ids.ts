/**
 * Ids of proxy tools: `mcp.<server>.<tool>`, each part lower-case snake_case so the id is a valid
 * tool id whatever the remote names look like (`Get-Item.v2` → `get_item_v2`). Two remote names
 * that end up alike get `_2`, `_3`… rather than silently replacing each other.
 */

export function idSegment(name: string): string {
  const seg = name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 64);
  return seg || 'tool';
}

export function proxyIdPrefix(server: string): string {
  return `mcp.${idSegment(server)}.`;
}

/** remote tool name → proxy id, in the order the server listed them. */
export function assignProxyIds(server: string, toolNames: readonly string[]): Map<string, string> {
  const prefix = proxyIdPrefix(server);
  const taken = new Set<string>();
  const ids = new Map<string, string>();
  for (const name of toolNames) {
    if (ids.has(name)) continue;
    const base = idSegment(name);
    let seg = base;
    for (let n = 2; taken.has(seg); n++) seg = `${base}_${n}`;
    taken.add(seg);
    ids.set(name, prefix + seg);
  }
  return ids;
}
