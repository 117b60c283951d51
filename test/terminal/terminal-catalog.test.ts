/**
 * Rule guarded: the terminal family is exactly the seed's 18 `terminal.*` tools, each declared
 * completely: a one-line description, the terminal category, a risk, all four hints and a run
 * policy, in toolset terminal or, for the sandbox's set-up, terminal-linux; the tools that type
 * into or change something are the ones a person's approval guards (self-gated: they ask for
 * themselves, finer than per tool), and the readers are read-only. Published to MCP with dots as underscores, and
 * callable by either name.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedName } from '../../tools/core/published-name';
import { ToolRegistry } from '../../tools/core/registry';
import { terminalFamily } from '../../tools/terminal';
import { SEED_CATALOG } from '../fixtures/seed-catalog';

const SEED_IDS = SEED_CATALOG.terminal as readonly string[];

const dir = mkdtempSync(join(tmpdir(), 'toolgate-terminal-catalog-'));
const family = terminalFamily({
  dataDir: dir,
  workspaceRoot: dir,
  settings: { hostEnabled: () => false, workspaces: () => undefined, ubuntuSource: () => undefined },
});
const byId = new Map(family.tools.map((t) => [t.id, t]));

describe('the terminal tool catalog', () => {
  it('is exactly the 18 seed tools, with their seed ids, and registers without a clash', () => {
    expect(family.tools.map((t) => t.id)).toEqual(SEED_IDS);
    const registry = new ToolRegistry();
    expect(() => registry.registerAll(family.tools)).not.toThrow();
    expect(SEED_IDS.map(publishedName)).toEqual(SEED_IDS.map((id) => id.replace(/\./g, '_')));
    expect(registry.get('terminal_ubuntu_ensure')?.id).toBe('terminal.ubuntu.ensure');
  });

  it('describes every tool in one line, in the terminal category (fields: test/host/description-style.test.ts)', () => {
    for (const tool of family.tools) {
      expect(tool.metadata.category, tool.id).toBe('terminal');
      expect(tool.description, tool.id).toMatch(/^[^\n]{60,320}$/);
    }
  });

  it('puts the terminals in toolset terminal and the sandbox set-up in terminal-linux', () => {
    expect(family.toolsets.map((g) => g.toolset.name)).toEqual(['terminal', 'terminal-linux']);
    const [terminals = [], setUp = []] = family.toolsets.map((g) => g.tools.map((t) => t.id));
    expect([...terminals, ...setUp]).toEqual(SEED_IDS);
    expect(setUp.every((id) => /linux|ubuntu/.test(id))).toBe(true);
  });

  it('declares risk, hints and run policy for each', () => {
    const table = family.tools.map((t) => [
      t.id,
      t.metadata.risk,
      t.metadata.annotations.readOnlyHint,
      t.metadata.annotations.destructiveHint,
      t.metadata.annotations.idempotentHint,
      t.selfGated,
      t.runPolicy,
    ]);
    expect(table).toEqual([
      ['terminal.create', 'MEDIUM', false, false, false, false, 'mutating'],
      ['terminal.run', 'HIGH', false, true, false, true, 'selfBounded'],
      ['terminal.write', 'HIGH', false, true, false, true, 'mutating'],
      ['terminal.observe', 'LOW', true, false, false, false, 'quickRead'],
      ['terminal.snapshot', 'LOW', true, false, true, false, 'quickRead'],
      ['terminal.wait', 'LOW', true, false, false, false, 'selfBounded'],
      ['terminal.resize', 'LOW', false, false, true, false, 'mutating'],
      ['terminal.signal', 'MEDIUM', false, false, false, false, 'mutating'],
      ['terminal.close', 'MEDIUM', false, false, true, false, 'mutating'],
      ['terminal.workspaces', 'LOW', true, false, true, false, 'quickRead'],
      ['terminal.backends', 'LOW', true, false, true, false, 'quickRead'],
      ['terminal.linux_bootstrap', 'HIGH', false, true, true, true, 'selfBounded'],
      ['terminal.linux_status', 'LOW', true, false, true, false, 'quickRead'],
      ['terminal.linux_packages', 'HIGH', false, true, false, true, 'selfBounded'],
      ['terminal.linux_network', 'HIGH', false, true, true, true, 'mutating'],
      ['terminal.ubuntu_install', 'HIGH', false, true, true, true, 'selfBounded'],
      ['terminal.ubuntu.ensure', 'HIGH', false, false, true, true, 'selfBounded'],
      ['terminal.ubuntu.status', 'LOW', true, false, true, false, 'quickRead'],
    ]);
  });

  it('keeps one circuit breaker per terminal for the tools that act on one', () => {
    for (const id of [
      'terminal.run',
      'terminal.write',
      'terminal.observe',
      'terminal.snapshot',
      'terminal.wait',
      'terminal.resize',
      'terminal.signal',
    ])
      expect([id, byId.get(id)?.breakerScope?.({ id: 't1' } as never)]).toEqual([id, 't1']);
  });
});
