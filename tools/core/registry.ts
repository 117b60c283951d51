/**
 * ToolRegistry (docs/architecture.md#registry): unique ids, REPLACE by default (v1 semantics),
 * REJECT refuses a duplicate; a tool naming a run policy that does not exist is refused. An unknown
 * id gets near-name suggestions, never the list of all ids. It also keeps which toolset each tool
 * belongs to (./toolset.ts), as its family declared.
 */
import { type Disposable, Emitter, toDisposable } from './disposable';
import type { ToolCategory } from './metadata';
import { publishedName } from './published-name';
import { RUN_POLICY_NAMES, isRunPolicyName } from './run-policy-name';
import { suggestToolIds } from './suggester';
import type { Tool } from './tool';
import type { Toolset } from './toolset';

export type RegisterPolicy = 'REPLACE' | 'REJECT';

export class DuplicateToolError extends Error {
  constructor(readonly toolId: string) {
    super(`A tool with id '${toolId}' is already registered (policy REJECT).`);
    this.name = 'DuplicateToolError';
  }
}

/** Two ids that publish under the same MCP name (`a.b` and `a_b`) would be one tool to a client. */
export class PublishedNameCollisionError extends Error {
  constructor(
    readonly toolId: string,
    readonly otherId: string,
    readonly publishedAs: string,
  ) {
    super(`Tool '${toolId}' would be published as '${publishedAs}', the name of tool '${otherId}'; choose another id.`);
    this.name = 'PublishedNameCollisionError';
  }
}

/** A tool naming a run policy that does not exist would otherwise run under one it did not ask for. */
export class UnknownRunPolicyError extends Error {
  constructor(
    readonly toolId: string,
    readonly runPolicy: string,
  ) {
    super(
      `Tool '${toolId}' names the run policy '${runPolicy}', which does not exist; use one ` +
        `of ${RUN_POLICY_NAMES.join(', ')}.`,
    );
    this.name = 'UnknownRunPolicyError';
  }
}

function checkRunPolicy(tool: Tool): void {
  if (tool.runPolicy !== undefined && !isRunPolicyName(tool.runPolicy))
    throw new UnknownRunPolicyError(tool.id, tool.runPolicy);
}

export type ToolLookup = { found: true; tool: Tool } | { found: false; suggestions: string[] };

export interface RegistryChange {
  kind: 'added' | 'replaced' | 'removed';
  toolId: string;
}

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  /** published name → id, for the ids whose published name differs from the id. */
  private readonly byPublishedName = new Map<string, string>();
  private readonly changes = new Emitter<RegistryChange>();
  private readonly toolsetByTool = new Map<string, Toolset>();
  private readonly declaredToolsets = new Map<string, Toolset>();

  /** Registers one tool; a tool a family adds after start (a shortcut, a remote tool) names the family's toolset. */
  register(tool: Tool, policy: RegisterPolicy = 'REPLACE', toolset?: Toolset): Disposable {
    const existing = this.tools.get(tool.id);
    if (existing && policy === 'REJECT') throw new DuplicateToolError(tool.id);
    checkRunPolicy(tool);
    if (toolset) this.declareToolset(toolset);
    this.claimPublishedName(tool.id);
    this.tools.set(tool.id, tool);
    if (toolset) this.toolsetByTool.set(tool.id, this.declaredToolsets.get(toolset.name) as Toolset);
    this.changes.emit({ kind: existing ? 'replaced' : 'added', toolId: tool.id });
    return toDisposable(() => {
      if (this.tools.get(tool.id) === tool) this.unregister(tool.id);
    });
  }

  /** Registers a family's tools as members of its toolset (the way the host registers every family). */
  registerToolset(toolset: Toolset, tools: readonly Tool[], policy: RegisterPolicy = 'REJECT'): Disposable {
    return this.registerAll(tools, policy, toolset);
  }

  /**
   * Registers a family; any duplicate id, inside the list or against the registry, is refused before anything is added.
   */
  registerAll(tools: readonly Tool[], policy: RegisterPolicy = 'REJECT', toolset?: Toolset): Disposable {
    const seen = new Set<string>();
    for (const tool of tools) {
      if (seen.has(tool.id) || (policy === 'REJECT' && this.tools.has(tool.id))) throw new DuplicateToolError(tool.id);
      seen.add(tool.id);
      checkRunPolicy(tool);
    }
    const names = new Map<string, string>();
    for (const tool of tools) {
      const name = publishedName(tool.id);
      const other = names.get(name) ?? this.owner(name);
      if (other !== undefined && other !== tool.id) throw new PublishedNameCollisionError(tool.id, other, name);
      names.set(name, tool.id);
    }
    if (toolset) this.declareToolset(toolset);
    const handles = tools.map((t) => this.register(t, policy, toolset));
    return toDisposable(() => {
      for (const h of handles) h.dispose();
    });
  }

  unregister(id: string): boolean {
    const removed = this.tools.delete(id);
    if (removed) this.toolsetByTool.delete(id);
    if (removed && this.byPublishedName.get(publishedName(id)) === id) this.byPublishedName.delete(publishedName(id));
    if (removed) this.changes.emit({ kind: 'removed', toolId: id });
    return removed;
  }

  /** By the seed id or by the name it is published under to MCP clients. */
  get(id: string): Tool | undefined {
    return this.tools.get(id) ?? this.tools.get(this.byPublishedName.get(id) ?? '');
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  lookup(id: string): ToolLookup {
    const tool = this.get(id);
    if (tool) return { found: true, tool };
    return { found: false, suggestions: suggestToolIds(id, this.tools.keys()) };
  }

  list(): Tool[] {
    return [...this.tools.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  ids(): string[] {
    return [...this.tools.keys()].sort();
  }

  /** The toolset a tool was registered in; undefined for a tool registered without one. */
  toolsetOf(id: string): Toolset | undefined {
    const tool = this.get(id);
    return tool ? this.toolsetByTool.get(tool.id) : undefined;
  }

  /**
   * Every toolset a family declared that has a tool now, by name: a family whose tools come and go
   * (GitHub's, registered only while a token is set) has no toolset while it has no tools.
   */
  toolsets(): Toolset[] {
    const withTools = new Set([...this.toolsetByTool.values()].map((t) => t.name));
    return [...this.declaredToolsets.values()]
      .filter((t) => withTools.has(t.name))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** A toolset by name, while it has a tool. */
  toolset(name: string): Toolset | undefined {
    const declared = this.declaredToolsets.get(name);
    if (!declared) return undefined;
    for (const t of this.toolsetByTool.values()) if (t.name === name) return declared;
    return undefined;
  }

  /** The tools of one toolset, by id. */
  toolsOf(name: string): Tool[] {
    return this.list().filter((t) => this.toolsetByTool.get(t.id)?.name === name);
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

  /** The id that holds a published name, if any. */
  private owner(name: string): string | undefined {
    return this.byPublishedName.get(name) ?? (this.tools.has(name) ? name : undefined);
  }

  /** Two families may not give one name two meanings. */
  private declareToolset(toolset: Toolset): void {
    const known = this.declaredToolsets.get(toolset.name);
    if (known && known.summary !== toolset.summary)
      throw new Error(`Toolset '${toolset.name}' is declared twice with different summaries.`);
    if (!known) this.declaredToolsets.set(toolset.name, toolset);
  }

  private claimPublishedName(id: string): void {
    const name = publishedName(id);
    const other = this.owner(name);
    if (other !== undefined && other !== id) throw new PublishedNameCollisionError(id, other, name);
    if (name !== id) this.byPublishedName.set(name, id);
  }

  get size(): number {
    return this.tools.size;
  }

  onChange(listener: (change: RegistryChange) => void): Disposable {
    return this.changes.on(listener);
  }
}
