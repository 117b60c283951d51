/**
 * Where shortcut definitions live so they survive a restart. The host provides a durable store
 * (SQLite); the in-memory one serves tests and headless runs without a data dir. Defining a
 * shortcut saves it first and registers it second, so a store that fails leaves no tool behind
 * that would vanish on the next start.
 */
import type { ToolRegistry } from '../core/registry';
import type { ToolResult } from '../core/result';
import { failure } from '../core/result';
import type { Tool } from '../core/tool';
import type { ShortcutDefinition } from './shortcut-definition';
import { type ShortcutCompileOptions, compileShortcut } from './shortcut-tool';
import { shortcutIssuesResult, validateShortcut } from './shortcut-validation';
import type { PreconditionKey } from './shortcut-preconditions';

export interface ShortcutStore {
  list(): ShortcutDefinition[];
  /** Saves a definition; one with the same id is replaced. */
  save(def: ShortcutDefinition): void;
  remove(id: string): boolean;
}

export class InMemoryShortcutStore implements ShortcutStore {
  private readonly defs = new Map<string, ShortcutDefinition>();

  list(): ShortcutDefinition[] {
    return [...this.defs.values()].map((d) => structuredClone(d));
  }

  save(def: ShortcutDefinition): void {
    this.defs.set(def.id, structuredClone(def));
  }

  remove(id: string): boolean {
    return this.defs.delete(id);
  }
}

export interface LoadReport {
  loaded: string[];
  /** Stored definitions that no longer validate (e.g. a step's tool is gone), with why. */
  skipped: Array<{ id: string; reason: string }>;
}

/**
 * Re-registers every stored shortcut. Call it after the tool families are registered: each
 * definition is validated again against the tools present now, and one that fails is skipped
 * (reported, kept in the store) rather than registered broken.
 */
export function loadShortcuts(
  store: ShortcutStore,
  registry: ToolRegistry,
  options: ShortcutCompileOptions = {},
): LoadReport {
  const report: LoadReport = { loaded: [], skipped: [] };
  for (const stored of store.list()) {
    const checked = validateShortcut(stored, registry);
    if (!checked.ok) {
      report.skipped.push({
        id: String(stored.id),
        reason: checked.issues.map((i) => `${i.field}: ${i.message}`).join('; '),
      });
      continue;
    }
    registry.register(compileShortcut(checked.definition, registry, options));
    report.loaded.push(checked.definition.id);
  }
  return report;
}

export interface DefinedShortcut {
  tool: Tool;
  definition: ShortcutDefinition;
  replaced: boolean;
}

/** Validates, saves and hot-registers a shortcut; redefining an id replaces the old one. */
export function defineShortcut(
  raw: unknown,
  deps: {
    store: ShortcutStore;
    registry: ToolRegistry;
    preconditionKeys?: readonly PreconditionKey[];
  } & ShortcutCompileOptions,
): { ok: true; value: DefinedShortcut } | { ok: false; result: ToolResult } {
  const checked = validateShortcut(
    raw,
    deps.registry,
    deps.preconditionKeys ? { preconditionKeys: deps.preconditionKeys } : {},
  );
  if (!checked.ok) return { ok: false, result: shortcutIssuesResult(checked.issues) };
  const definition = checked.definition;
  const tool = compileShortcut(definition, deps.registry, deps);
  const replaced = deps.registry.has(definition.id);
  try {
    deps.store.save(definition);
  } catch (e) {
    return {
      ok: false,
      result: failure('EXECUTION_FAILED', `The shortcut could not be saved: ${(e as Error).message}`, {
        hint: 'The shortcut store failed; the shortcut was not defined. Retry once; if it fails again, report it.',
      }),
    };
  }
  deps.registry.register(tool, 'REPLACE');
  return { ok: true, value: { tool, definition, replaced } };
}

/** Removes a shortcut from the store and the registry (for the host's UI). */
export function removeShortcut(id: string, deps: { store: ShortcutStore; registry: ToolRegistry }): boolean {
  const removed = deps.store.remove(id);
  const unregistered = id.startsWith('shortcut.') && deps.registry.unregister(id);
  return removed || unregistered;
}
