/**
 * Rule: every tool the host registers belongs to a toolset its family declared at registration, so
 * a family that declares none (its tools would never be listed to a client) fails here by name.
 * Toolset names are lower-case words joined by hyphens with a one-line summary, and no two families
 * give one name two meanings. A toolset is there while it has a tool: GitHub's only with a token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolRegistry } from '../../tools/core/registry';
import { defineTool } from '../../tools/core/tool';
import { defineToolset } from '../../tools/core/toolset';
import { type TestHost, startTestHost, withGithubToken } from './harness';

let t: TestHost;
let withoutGithub: TestHost;
beforeAll(async () => {
  t = await startTestHost(withGithubToken());
  withoutGithub = await startTestHost();
});
afterAll(async () => {
  await t?.dispose();
  await withoutGithub?.dispose();
});

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
        'github',
        'mcp-client',
        'memory',
        'network',
        'orchestration',
        'skills',
        'structured',
        'terminal',
        'terminal-linux',
        'toolsets',
      ]),
    );
    for (const name of names) expect(t.host.registry.toolsOf(name).length, name).toBeGreaterThan(0);
    expect(t.host.registry.toolsetOf('shell_execute')?.name).toBe('device-shell');
    expect(t.host.registry.toolsetOf('calculate')?.name).toBe('structured');
    expect(t.host.registry.toolsetOf('version_compare')?.name).toBe('structured');
    expect(t.host.registry.toolsetOf('logcat')?.name).toBe('device-system');
    expect(t.host.registry.toolsetOf('terminal.run')?.name).toBe('terminal');
    expect(t.host.registry.toolsetOf('terminal.linux_bootstrap')?.name).toBe('terminal-linux');
    expect(t.host.registry.toolsetOf('memory_search_nodes')?.name).toBe('memory');
    expect(t.host.registry.toolsetOf('skill.web-form-check.open_and_snapshot')?.name).toBe('skills');
    expect(t.host.registry.toolsetOf('github_write_file')?.name).toBe('github');
  });

  it('has a GitHub toolset only while a token is set', () => {
    expect(withoutGithub.host.registry.toolsets().map((s) => s.name)).not.toContain('github');
    expect(withoutGithub.host.registry.toolset('github')).toBeUndefined();
    expect(t.host.registry.toolset('github')?.summary).toMatch(/GitHub/);
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
    registry.unregister('note_add');
    expect(registry.toolsets().map((s) => s.name)).not.toContain('notes');
    registry.register(tool('note_add'), 'REPLACE', notes);
    expect(registry.toolset('notes')).toBe(notes);
    expect(() => registry.registerToolset(defineToolset('notes', 'Other notes.'), [tool('x')])).toThrow(
      "Toolset 'notes' is declared twice with different summaries.",
    );
    expect(registry.has('x')).toBe(false);
  });
});
