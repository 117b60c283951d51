/**
 * Rule (docs/architecture.md#tool-families): the v3 family is exactly the seven tools of the
 * catalog, each in the orchestration category (descriptions: test/host/description-style.test.ts), and the composite
 * tools publish the risk the seed gives them (batch MEDIUM) while the plain ones are read-only.
 */
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../tools/core/registry';
import { InMemoryShortcutStore, orchestrationTools } from '../../tools/orchestration';

const tools = orchestrationTools({ registry: new ToolRegistry(), shortcutStore: new InMemoryShortcutStore() });

describe('the orchestration family', () => {
  it('is exactly the seven v3 tools', () => {
    expect(tools.map((t) => t.id).sort()).toEqual([
      'json_transform',
      'shortcut_define',
      'shortcut_list',
      'shortcut_run',
      'tool_batch_run',
      'version_compare',
      'wait',
    ]);
  });

  it('registers without duplicates', () => {
    expect(() => new ToolRegistry().registerAll(tools)).not.toThrow();
  });

  it('publishes category, risk and read-only hints', () => {
    const byId = new Map(tools.map((t) => [t.id, t.metadata]));
    for (const meta of byId.values()) expect(meta.category).toBe('orchestration');
    expect(byId.get('tool_batch_run')?.risk).toBe('MEDIUM');
    expect(byId.get('shortcut_run')?.risk).toBe('MEDIUM');
    for (const id of ['wait', 'json_transform', 'version_compare', 'shortcut_list']) {
      expect({ id, risk: byId.get(id)?.risk, readOnly: byId.get(id)?.annotations.readOnlyHint }).toEqual({
        id,
        risk: 'LOW',
        readOnly: true,
      });
    }
  });
});
