/**
 * ToolRegistry (docs/architecture.md#registry): unique ids, REPLACE by default (v1 semantics),
 * REJECT refuses a duplicate. An unknown id gets near-name suggestions, never the list of all ids.
 */
import { type Disposable, Emitter, toDisposable } from './disposable';
import type { ToolCategory } from './metadata';
import { suggestToolIds } from './suggester';
import type { Tool } from './tool';

export type RegisterPolicy = 'REPLACE' | 'REJECT';

export class DuplicateToolError extends Error {
  constructor(readonly toolId: string) {
    super(`A tool with id '${toolId}' is already registered (policy REJECT).`);
    this.name = 'DuplicateToolError';
  }
}

export type ToolLookup = { found: true; tool: Tool } | { found: false; suggestions: string[] };

export interface RegistryChange {
  kind: 'added' | 'replaced' | 'removed';
  toolId: string;
}

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private readonly changes = new Emitter<RegistryChange>();

  register(tool: Tool, policy: RegisterPolicy = 'REPLACE'): Disposable {
    const existing = this.tools.get(tool.id);
    if (existing && policy === 'REJECT') throw new DuplicateToolError(tool.id);
    this.tools.set(tool.id, tool);
    this.changes.emit({ kind: existing ? 'replaced' : 'added', toolId: tool.id });
    return toDisposable(() => {
      if (this.tools.get(tool.id) === tool) this.unregister(tool.id);
    });
  }

  /** Registers a family; any duplicate id, inside the list or against the registry, is refused before anything is added. */
  registerAll(tools: readonly Tool[], policy: RegisterPolicy = 'REJECT'): Disposable {
    const seen = new Set<string>();
    for (const tool of tools) {
      if (seen.has(tool.id) || (policy === 'REJECT' && this.tools.has(tool.id))) throw new DuplicateToolError(tool.id);
      seen.add(tool.id);
    }
    const handles = tools.map((t) => this.register(t, policy));
    return toDisposable(() => {
      for (const h of handles) h.dispose();
    });
  }

  unregister(id: string): boolean {
    const removed = this.tools.delete(id);
    if (removed) this.changes.emit({ kind: 'removed', toolId: id });
    return removed;
  }

  get(id: string): Tool | undefined {
    return this.tools.get(id);
  }

  has(id: string): boolean {
    return this.tools.has(id);
  }

  lookup(id: string): ToolLookup {
    const tool = this.tools.get(id);
    if (tool) return { found: true, tool };
    return { found: false, suggestions: suggestToolIds(id, this.tools.keys()) };
  }

  list(): Tool[] {
    return [...this.tools.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  ids(): string[] {
    return [...this.tools.keys()].sort();
  }

  byCategory(): Map<ToolCategory, Tool[]> {
    const groups = new Map<ToolCategory, Tool[]>();
    for (const tool of this.list()) {
      const group = groups.get(tool.metadata.category) ?? [];
      group.push(tool);
      groups.set(tool.metadata.category, group);
    }
    return groups;
  }

  get size(): number {
    return this.tools.size;
  }

  onChange(listener: (change: RegistryChange) => void): Disposable {
    return this.changes.on(listener);
  }
}
