/**
 * Rule: every tool the host registers belongs to a toolset its family declared at registration, so
 * a family that declares none (its tools would never be listed to a client) fails here by name.
 * Toolset names are lower-case words joined by hyphens with a one-line summary, and no two families
 * give one name two meanings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolRegistry } from '../../tools/core/registry';
import { defineTool } from '../../tools/core/tool';
import { defineToolset } from '../../tools/core/toolset';
import { type TestHost, startTestHost } from './harness';

let t: TestHost;
beforeAll(async () => {
  t = await startTestHost();
});
afterAll(async () => t?.dispose());

const tool = (id: string) => defineTool({ id, description: `The ${id} tool.`, input: z.object({}), run: () => id });

describe('the host catalog', () => {
  it('puts every registered tool in a toolset', () => {
    const without = t.host.registry.ids().filter((id) => t.host.registry.toolsetOf(id) === undefined);
    expect(without, 'tools registered without a toolset (use registry.registerToolset)').toEqual([]);
  });

  it('has the toolsets of its families, each with tools', () => {
    const names = t.host.registry.toolsets().map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'browser',
        'device',
        'device-shell',
        'device-system',
        'files',
        'mcp-client',
        'memory',
        'network',
        'orchestration',
        'structured',
        'toolsets',
      ]),
    );
    for (const name of names) expect(t.host.registry.toolsOf(name).length, name).toBeGreaterThan(0);
    expect(t.host.registry.toolsetOf('shell_execute')?.name).toBe('device-shell');
    expect(t.host.registry.toolsetOf('calculate')?.name).toBe('structured');
    expect(t.host.registry.toolsetOf('version_compare')?.name).toBe('structured');
    expect(t.host.registry.toolsetOf('logcat')?.name).toBe('device-system');
  });
});

describe('a toolset declaration', () => {
  it('refuses a name that is not lower-case words joined by hyphens, and a summary that is not one line', () => {
    expect(() => defineToolset('Device', 'x')).toThrow(/lower-case words joined by hyphens/);
    expect(() => defineToolset('device_shell', 'x')).toThrow(/lower-case words joined by hyphens/);
    expect(() => defineToolset('device', 'two\nlines')).toThrow(/one-line summary/);
    expect(() => defineToolset('device', '')).toThrow(/one-line summary/);
  });

  it('is kept with the tools registered in it, also for a tool added later, and forgotten with the tool', () => {
    const registry = new ToolRegistry();
    const notes = defineToolset('notes', 'Notes.');
    registry.registerToolset(notes, [tool('note_add')]);
    registry.register(tool('note_late'), 'REPLACE', notes);
    registry.register(tool('loose'));
    expect(registry.toolsOf('notes').map((x) => x.id)).toEqual(['note_add', 'note_late']);
    expect(registry.toolsetOf('loose')).toBeUndefined();
    registry.unregister('note_late');
    expect(registry.toolsetOf('note_late')).toBeUndefined();
    expect(() => registry.registerToolset(defineToolset('notes', 'Other notes.'), [tool('x')])).toThrow(
      "Toolset 'notes' is declared twice with different summaries.",
    );
    expect(registry.has('x')).toBe(false);
  });
});
